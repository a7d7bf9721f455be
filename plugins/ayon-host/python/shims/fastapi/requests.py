"""A request as addon handlers see it: what the Pipewright server forwarded, read-only."""

import json
from types import SimpleNamespace
from typing import Any, AsyncIterator, Mapping


class Headers(Mapping[str, str]):
    """Case-insensitive header names, as HTTP has them."""

    def __init__(self, headers: Mapping[str, str] | None = None) -> None:
        self._items = {name.lower(): value for name, value in (headers or {}).items()}

    def __getitem__(self, name: str) -> str:
        return self._items[name.lower()]

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def get(self, name: str, default: Any = None) -> Any:
        return self._items.get(name.lower(), default)


class QueryParams(Mapping[str, str]):
    """Query parameters: indexing gives the last value of a name, `getlist` all of them."""

    def __init__(self, values: Mapping[str, list[str]] | None = None) -> None:
        self._values = {name: list(items) for name, items in (values or {}).items() if items}

    def __getitem__(self, name: str) -> str:
        return self._values[name][-1]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def getlist(self, name: str) -> list[str]:
        return list(self._values.get(name, []))

    def multi_items(self) -> list[tuple[str, str]]:
        return [(name, value) for name, items in self._values.items() for value in items]


class Request:
    """`.body()`, `.json()`, `.stream()`, `.headers`, `.query_params`, `.path_params`, `.method`, and `.state.user`
    (the user the call is made for)."""

    def __init__(
        self,
        *,
        method: str = "GET",
        path: str = "",
        headers: Mapping[str, str] | None = None,
        query: Mapping[str, list[str]] | None = None,
        path_params: Mapping[str, str] | None = None,
        body: bytes = b"",
        user: Any = None,
    ) -> None:
        self.method = method.upper()
        self.path = path
        self.headers = Headers(headers)
        self.query_params = QueryParams(query)
        self.path_params = dict(path_params or {})
        self.state = SimpleNamespace(user=user)
        self.scope = {"type": "http", "method": self.method, "path": path}
        self._body = body

    @property
    def user(self) -> Any:
        return self.state.user

    async def body(self) -> bytes:
        return self._body

    async def json(self) -> Any:
        return json.loads(self._body or b"null")

    async def stream(self) -> AsyncIterator[bytes]:
        if self._body:
            yield self._body

    async def is_disconnected(self) -> bool:
        return False
