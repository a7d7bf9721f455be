"""`ProjectEntity`: the project in AYON's REST shape, read through the `project` callback."""

from typing import Any

from ayon_server._bridge import server_call
from ayon_server.entities.core.toplevel import TopLevelEntity


def _anatomy_list(key: str) -> property:
    """A project anatomy list as dicts, as AYON's ProjectEntity gives them (addons index task_type["name"])."""

    def read(self: "ProjectEntity") -> list[dict[str, Any]]:
        return list(self._payload.get(key) or [])

    return property(read)


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

    folder_types = _anatomy_list("folderTypes")
    task_types = _anatomy_list("taskTypes")
    link_types = _anatomy_list("linkTypes")
    statuses = _anatomy_list("statuses")
    tags = _anatomy_list("tags")

    @property
    def nickname(self) -> str:
        from ayon_server.utils import get_nickname

        return get_nickname(str(self.created_at) + (self.name or ""), 2)
