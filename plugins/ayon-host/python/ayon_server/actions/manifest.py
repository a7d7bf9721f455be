"""Action manifests: what an addon offers to run (label, icon, where it applies). They travel camelCase."""

from typing import Any, Literal

from pydantic import validator

from ayon_server.types import OPModel


class IconModel(OPModel):
    type: Literal["material-symbols", "url"] = "url"
    name: str | None = None  # material-symbols icon name
    color: str | None = None  # material-symbols colour
    url: str | None = None  # url icon


class BaseActionManifest(OPModel):
    identifier: str
    label: str
    group_label: str | None = None
    category: str = "General"
    order: int = 100
    icon: IconModel | None = None
    admin_only: bool = False
    manager_only: bool = False
    config_fields: list[dict[str, Any]] | None = None  # a SimpleForm: the action's per-user settings

    # set by the server from the user's preferences
    featured: bool = False

    # the server fills these in when it lists the action
    addon_name: str | None = None
    addon_version: str | None = None
    variant: str | None = None

    @validator("config_fields", pre=True)
    def _form_as_list(cls, value: Any) -> list[dict[str, Any]] | None:
        return list(value) if isinstance(value, list) else None


class SimpleActionManifest(BaseActionManifest):
    """An action chosen by entity type (and subtypes: folder or task types) alone, so it can be listed once per
    project and cached."""

    _action_type = "simple"

    entity_type: str | None = None
    entity_subtypes: list[str] | None = None
    allow_multiselection: bool = False


class DynamicActionManifest(BaseActionManifest):
    """An action the addon decides on for the exact entities selected."""

    _action_type = "dynamic"
