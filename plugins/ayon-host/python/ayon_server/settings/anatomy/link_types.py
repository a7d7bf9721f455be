"""Link types (a link type, its input and output entity types) and AYON's built-in set."""

from typing import Literal

from ayon_server.settings.common import BaseSettingsModel
from ayon_server.settings.settings_field import SettingsField
from ayon_server.types import ProjectLevelEntityType


class LinkType(BaseSettingsModel):
    _layout = "compact"
    link_type: str = SettingsField(..., title="Link type", min_length=1, max_length=100)
    input_type: ProjectLevelEntityType = SettingsField(..., title="Input type")
    output_type: ProjectLevelEntityType = SettingsField(..., title="Output type")
    color: str | None = SettingsField(None, title="Color", widget="color")
    style: Literal["solid", "dashed"] = SettingsField("solid", title="Style")

    def __hash__(self):
        return hash((self.link_type, self.input_type, self.output_type))


default_link_types = [
    LinkType(link_type=link_type, input_type=entity_type, output_type=entity_type, color=color, style="solid")
    for link_type, entity_type, color in (
        ("generative", "version", "#3f67de"),
        ("breakdown", "folder", "#6edd72"),
        ("reference", "version", "#d94383"),
        ("template", "folder", "#fff824"),
    )
]
