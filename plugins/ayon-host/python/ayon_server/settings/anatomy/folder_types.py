"""Folder types and AYON's built-in set."""

from ayon_server.settings.settings_field import SettingsField

from .aux_model import BaseAuxModel


class FolderType(BaseAuxModel):
    shortName: str = SettingsField("", title="Short name")
    icon: str = SettingsField("folder", title="Icon", widget="icon")


default_folder_types = [
    FolderType(name=name, shortName=short_name, icon=icon)
    for name, short_name, icon in (
        ("Folder", "", "folder"),
        ("Library", "lib", "category"),
        ("Asset", "", "smart_toy"),
        ("Episode", "ep", "live_tv"),
        ("Sequence", "sq", "theaters"),
        ("Shot", "sh", "movie"),
    )
]
