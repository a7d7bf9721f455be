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
from typing import Any

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


def _builtin_list(items: list, title: str) -> Any:
    """A list field that starts as AYON's built-in items (each anatomy gets its own copies); the first item is the
    schema's example."""
    return SettingsField(
        default_factory=lambda: copy.deepcopy(items),
        title=title,
        description=f"{title} configuration",
        example=[items[0].dict()],
    )


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
    folder_types: list[FolderType] = _builtin_list(default_folder_types, "Folder types")
    task_types: list[TaskType] = _builtin_list(default_task_types, "Task types")
    link_types: list[LinkType] = _builtin_list(default_link_types, "Link types")
    statuses: list[Status] = _builtin_list(default_statuses, "Statuses")
    tags: list[Tag] = _builtin_list(default_tags, "Tags")
    product_base_types: ProductBaseTypes = SettingsField(title="Product Types", default_factory=ProductBaseTypes)

    @validator("roots", "folder_types", "task_types", "statuses", "tags")
    def ensure_unique_names(cls, value, field):
        ensure_unique_names(value, field_name=field.name)
        return value
