"""Entities as addon code reads them: a view over the REST document the Pipewright server sends (camelCase keys),
with AYON's snake_case attribute names (`task.task_type` reads "taskType")."""

import builtins
import copy
from typing import Any

from ayon_server.types import camelize


class AttribView:
    """`entity.attrib`: attribute access over the attrib dict; an attribute the entity does not set reads None,
    as AYON's attrib models give None for unset attributes."""

    def __init__(self, values: dict[str, Any] | None) -> None:
        object.__setattr__(self, "_values", dict(values or {}))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        values = object.__getattribute__(self, "_values")
        return values.get(name, values.get(camelize(name)))

    def __setattr__(self, name: str, value: Any) -> None:
        self._values[name] = value

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __contains__(self, name: str) -> bool:
        return name in self._values

    def __iter__(self):
        return iter(self._values.items())

    def get(self, name: str, default: Any = None) -> Any:
        return self._values.get(name, default)

    def dict(self, exclude_none: bool = False, **_: Any) -> dict[str, Any]:
        values = copy.deepcopy(self._values)
        return {key: value for key, value in values.items() if value is not None} if exclude_none else values

    def __repr__(self) -> str:
        return f"Attrib({self._values!r})"


class BaseEntity:
    """Read-only by design: writes (`save`, `delete`) would bypass the server's checks and are refused."""

    entity_type: str = "entity"

    def __init__(self, payload: dict[str, Any], project_name: str | None = None) -> None:
        self._payload = dict(payload)
        self.project_name = project_name
        self.exists = True
        self.attrib = AttribView(self._payload.get("attrib"))

    @classmethod
    def from_record(cls, payload: dict[str, Any], project_name: str | None = None, **_: Any) -> "BaseEntity":
        return cls(payload, project_name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        payload = self.__dict__.get("_payload", {})
        for key in (camelize(name), name):
            if key in payload:
                return payload[key]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._payload.get('name') or self._payload.get('id')}>"

    def __bool__(self) -> bool:
        return True

    @property
    def id(self) -> str | None:
        return self._payload.get("id")

    @property
    def name(self) -> str | None:
        return self._payload.get("name")

    @property
    def data(self) -> dict[str, Any]:
        # a mutable dict, as AYON's (addons call .get() on it and sometimes update it before deciding)
        return self._payload.setdefault("data", {})

    @property
    def active(self) -> bool:
        return bool(self._payload.get("active", True))

    @property
    def own_attrib(self) -> list[str]:
        return list(self._payload.get("ownAttrib") or [])

    @property
    def created_at(self) -> Any:
        return self._payload.get("createdAt")

    @property
    def updated_at(self) -> Any:
        return self._payload.get("updatedAt")

    @property
    def payload(self) -> "BaseEntity":
        return self

    def dict(self, exclude_none: bool = False, by_alias: bool = False, **_: Any) -> dict[str, Any]:
        """The entity document, with snake_case keys (AYON's model dict) unless by_alias asks for camelCase."""
        result: dict[str, Any] = {}
        for key, value in copy.deepcopy(self._payload).items():
            if exclude_none and value is None:
                continue
            result[key if by_alias else _snake(key)] = value
        return result

    def dict_simple(self) -> "builtins.dict[str, Any]":
        return self.dict(exclude_none=True)

    async def save(self, *args: Any, **kwargs: Any) -> bool:
        from ayon_server.exceptions import NotImplementedException

        raise NotImplementedException(f"Addon code cannot save a {self.entity_type} on Pipewright")

    async def delete(self, *args: Any, **kwargs: Any) -> bool:
        from ayon_server.exceptions import NotImplementedException

        raise NotImplementedException(f"Addon code cannot delete a {self.entity_type} on Pipewright")


def _snake(name: str) -> str:
    return "".join(f"_{char.lower()}" if char.isupper() else char for char in name)
