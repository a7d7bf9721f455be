"""`Anatomy`: a project's (or an anatomy preset's) roots, templates, attributes, folder and task types, link types,
statuses, tags and product type appearance. `Anatomy()` is AYON's built-in preset."""

__all__ = [
    "Anatomy",
    "FolderType",
    "LinkType",
    "ProductBaseTypes",
    "ProjectAttribModel",
    "Root",
    "Status",
    "Tag",
    "TaskType",
    "Templates",
]

import copy

from pydantic import validator

from ayon_server.settings.common import BaseSettingsModel
from ayon_server.settings.settings_field import SettingsField
from ayon_server.settings.validators import ensure_unique_names

from .attributes import ProjectAttribModel
from .folder_types import FolderType, default_folder_types
from .link_types import LinkType, default_link_types
from .product_base_types import ProductBaseTypes
from .roots import Root, default_roots
from .statuses import Status, default_statuses
from .tags import Tag, default_tags
from .task_types import TaskType, default_task_types
from .templates import Templates


def _copies_of(items: list) -> list:
    """Each anatomy gets its own copies of the built-in items."""
    return copy.deepcopy(items)


class Anatomy(BaseSettingsModel):
    _layout = "root"
    _title = "Project anatomy"

    roots: list[Root] = SettingsField(
        default=default_roots, title="Roots", description="Setup root paths for the project"
    )
    templates: Templates = SettingsField(
        default_factory=Templates, title="Templates", description="Path templates configuration"
    )
    attributes: ProjectAttribModel = SettingsField(
        default_factory=ProjectAttribModel, title="Attributes", description="Attributes configuration"
    )
    folder_types: list[FolderType] = SettingsField(
        default_factory=lambda: _copies_of(default_folder_types),
        title="Folder types",
        description="Folder types configuration",
        example=[default_folder_types[0].dict()],
    )
    task_types: list[TaskType] = SettingsField(
        default_factory=lambda: _copies_of(default_task_types),
        title="Task types",
        description="Task types configuration",
        example=[default_task_types[0].dict()],
    )
    link_types: list[LinkType] = SettingsField(
        default_factory=lambda: _copies_of(default_link_types),
        title="Link types",
        description="Link types configuration",
        example=[default_link_types[0].dict()],
    )
    statuses: list[Status] = SettingsField(
        default_factory=lambda: _copies_of(default_statuses),
        title="Statuses",
        description="Statuses configuration",
        example=[default_statuses[0].dict()],
    )
    tags: list[Tag] = SettingsField(
        default_factory=lambda: _copies_of(default_tags),
        title="Tags",
        description="Tags configuration",
        example=[default_tags[0].dict()],
    )
    product_base_types: ProductBaseTypes = SettingsField(title="Product Types", default_factory=ProductBaseTypes)

    @validator("roots", "folder_types", "task_types", "statuses", "tags")
    def ensure_unique_names(cls, value, field):
        ensure_unique_names(value, field_name=field.name)
        return value
