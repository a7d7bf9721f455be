"""`ProjectEntity`: the project in AYON's REST shape, read through the `project` callback."""

from typing import Any

from ayon_server._bridge import server_call
from ayon_server.entities.core.toplevel import TopLevelEntity


class ProjectEntity(TopLevelEntity):
    entity_type = "project"

    @classmethod
    async def load(cls, name: str, for_update: bool = False, **kwargs: Any) -> "ProjectEntity":
        payload = await server_call("project", {"projectName": name})
        return cls(payload, payload.get("name", name))

    @property
    def code(self) -> str:
        return self._payload.get("code", "")

    @property
    def library(self) -> bool:
        return bool(self._payload.get("library", False))

    @property
    def config(self) -> dict[str, Any]:
        return self._payload.setdefault("config", {})

    # Project anatomy lists: dicts, as AYON's ProjectEntity gives them (addons index task_type["name"])

    @property
    def folder_types(self) -> list[dict[str, Any]]:
        return list(self._payload.get("folderTypes") or [])

    @property
    def task_types(self) -> list[dict[str, Any]]:
        return list(self._payload.get("taskTypes") or [])

    @property
    def link_types(self) -> list[dict[str, Any]]:
        return list(self._payload.get("linkTypes") or [])

    @property
    def statuses(self) -> list[dict[str, Any]]:
        return list(self._payload.get("statuses") or [])

    @property
    def tags(self) -> list[dict[str, Any]]:
        return list(self._payload.get("tags") or [])

    @property
    def nickname(self) -> str:
        from ayon_server.utils import get_nickname

        return get_nickname(str(self.created_at) + (self.name or ""), 2)
