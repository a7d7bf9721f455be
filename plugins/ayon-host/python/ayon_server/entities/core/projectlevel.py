"""Folders, tasks, products, versions, representations, workfiles: read through the `entity` callback, with the
access of the user the request is made for."""

from typing import Any

from ayon_server._bridge import server_call
from ayon_server.entities.core.base import BaseEntity


class ProjectLevelEntity(BaseEntity):
    subtype_key: str | None = None  # the REST key holding the entity's type ("folderType", "taskType", ...)
    parent_key: str | None = None  # the REST key holding the parent's id ("parentId", "folderId", ...)

    def __init_subclass__(cls, **keys: Any) -> None:
        """`class TaskEntity(ProjectLevelEntity, entity_type="task", ...)`: the kinds differ only by these keys."""
        for name in ("entity_type", "subtype_key", "parent_key"):
            if name in keys:
                setattr(cls, name, keys.pop(name))
        super().__init_subclass__(**keys)

    @classmethod
    async def load(cls, project_name: str, entity_id: str, for_update: bool = False, **kwargs: Any):
        payload = await server_call(
            "entity", {"projectName": project_name, "entityType": cls.entity_type, "entityId": entity_id}
        )
        return cls(payload, project_name)

    @property
    def parent_id(self) -> str | None:
        return self._payload.get(self.parent_key) if self.parent_key else None

    @property
    def status(self) -> str | None:
        return self._payload.get("status")

    @property
    def tags(self) -> list[str]:
        return list(self._payload.get("tags") or [])

    @property
    def path(self) -> str | None:
        return self._payload.get("path")

    @property
    def entity_subtype(self) -> str | None:
        return self._payload.get(self.subtype_key) if self.subtype_key else None
