"""`UserEntity`: the user a request is made for, as the server describes it in the call's `user`:
`{"name", "isAdmin", "isManager", "isService", "isGuest", "accessGroups": {project: [group]}, "attrib"}`."""

from typing import Any

from ayon_server.entities.core.toplevel import TopLevelEntity
from ayon_server.exceptions import ForbiddenException, NotImplementedException


class UserEntity(TopLevelEntity):
    entity_type = "user"

    def __init__(self, payload: dict[str, Any], project_name: str | None = None) -> None:
        super().__init__(payload, project_name)
        self.path_access_cache: dict[str, Any] | None = None

    @classmethod
    async def load(cls, name: str, for_update: bool = False, **kwargs: Any) -> "UserEntity":
        raise NotImplementedException(f"Loading user {name} is not available to addon code on Pipewright")

    @property
    def is_admin(self) -> bool:
        return bool(self._payload.get("isAdmin"))

    @property
    def is_manager(self) -> bool:
        return self.is_admin or bool(self._payload.get("isManager"))

    @property
    def is_service(self) -> bool:
        return bool(self._payload.get("isService"))

    @property
    def is_guest(self) -> bool:
        return bool(self._payload.get("isGuest"))

    @property
    def is_developer(self) -> bool:
        return bool(self._payload.get("isDeveloper") or self.data.get("isDeveloper"))

    @property
    def is_external(self) -> bool:
        return False

    @property
    def access_groups(self) -> dict[str, list[str]]:
        return dict(self._payload.get("accessGroups") or {})

    def check_project_access(self, project_name: str) -> None:
        """Managers reach every project; others the projects their access groups name."""
        if self.is_manager:
            return
        projects = {name.lower() for name, groups in self.access_groups.items() if groups}
        if project_name.lower() not in projects:
            raise ForbiddenException("No access to project")

    async def ensure_project_access(self, project_name: str) -> None:
        self.check_project_access(project_name)

    def check_permissions(self, key: str, project_name: str | None = None, write: bool = False) -> None:
        """AYON's fine-grained permissions live in access groups the host does not see: managers pass, others
        need access to the project (the server checks the rest of what a callback reads)."""
        if self.is_manager:
            return
        if project_name is None:
            raise ForbiddenException(f"{key} requires a manager")
        self.check_project_access(project_name)
