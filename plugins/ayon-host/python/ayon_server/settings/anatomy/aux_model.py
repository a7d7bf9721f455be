"""The base of the anatomy items a project keeps in its own tables: folder types, task types, statuses, tags.
Link types are keyed differently and do not use it."""

from pydantic import validator

from ayon_server.settings.common import BaseSettingsModel
from ayon_server.settings.settings_field import SettingsField


class BaseAuxModel(BaseSettingsModel):
    _layout = "compact"
    name: str = SettingsField(..., title="Name", min_length=1, max_length=100)
    # The name the item had when loaded; a differing `name` is a rename. Hidden from the editor (empty scope).
    original_name: str | None = SettingsField(None, title="Original name", scope=[])

    def __hash__(self):
        return hash(self.name)

    @validator("original_name")
    def validate_original_name(cls, value, values):
        return values["name"] if value is None else value
