"""Statuses (each with a state and the entity types it applies to) and AYON's built-in set."""

from typing import Literal, get_args

from pydantic import validator

from ayon_server.settings.settings_field import SettingsField
from ayon_server.types import ProjectLevelEntityType

from .aux_model import BaseAuxModel

State = Literal["not_started", "in_progress", "done", "blocked"]

_STATE_LABELS = {"not_started": "Not Started", "in_progress": "In Progress", "done": "Done", "blocked": "Blocked"}


def get_state_enum() -> list[dict[str, str]]:
    return [{"value": value, "label": label} for value, label in _STATE_LABELS.items()]


def scope_enum() -> list[dict[str, str]]:
    return [{"value": name, "label": name.capitalize()} for name in get_args(ProjectLevelEntityType)]


def get_default_scopes() -> list[str]:
    """Every project-level entity type: a status applies to all unless limited."""
    return list(get_args(ProjectLevelEntityType))


class Status(BaseAuxModel):
    shortName: str = SettingsField("", title="Short name", example="PRG")
    state: State = SettingsField("not_started", title="State", enum_resolver=get_state_enum, example="in_progress")
    icon: str = SettingsField("", title="Icon", widget="icon", example="play_arrow")
    color: str = SettingsField("#cacaca", title="Color", widget="color", example="#3498db")
    scope: list[str] | None = SettingsField(
        default_factory=get_default_scopes,
        example=get_default_scopes(),
        enum_resolver=scope_enum,
        description="Limit the status to specific entity types.",
    )
    # Renames only; not shown in the editor.
    original_name: str | None = SettingsField(None, scope=[], example=None)

    @validator("scope")
    def validate_scope(cls, value, values):
        return get_default_scopes() if value is None else value


default_statuses = [
    Status(name=name, shortName=short_name, icon=icon, color=color, state=state, scope=scope)
    for name, short_name, icon, color, state, scope in (
        ("Not ready", "NRD", "fiber_new", "#3d444f", "not_started", ["folder", "product", "task"]),
        ("Ready to start", "RDY", "timer", "#bababa", "not_started", ["folder", "task"]),
        ("In progress", "PRG", "play_arrow", "#5bb8f5", "in_progress", ["folder", "task"]),
        ("Pending review", "RVW", "visibility", "#ffcd19", "in_progress", ["folder", "version", "task"]),
        ("Approved", "APP", "task_alt", "#08f094", "done", ["folder", "product", "version", "task"]),
        ("On hold", "HLD", "back_hand", "#fa6e46", "blocked", ["folder", "task"]),
        ("Omitted", "OMT", "block", "#cb1a1a", "blocked", ["folder", "product", "version", "representation", "task"]),
    )
]
