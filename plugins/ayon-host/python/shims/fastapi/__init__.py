"""The part of FastAPI that AYON addons import, for Pipewright's addon host.

Nothing here serves HTTP: the Pipewright server receives the request and the host's endpoint binder
(`pipewright_ayon_host.endpoints`) calls the addon's handler. The parameter markers (`Query`, `Path`, `Body`,
`Header`, `Depends`) only carry what the binder needs to fill a parameter; `APIRouter` records routes."""

from typing import Any, Callable

from fastapi import status
from fastapi.requests import Request
from fastapi.responses import Response

__all__ = [
    "APIRouter",
    "Body",
    "Depends",
    "Header",
    "HTTPException",
    "Path",
    "Query",
    "Request",
    "Response",
    "status",
]


class HTTPException(Exception):
    """An error a handler raises on purpose; the client gets status_code and {"detail": detail}."""

    def __init__(self, status_code: int, detail: Any = None, headers: dict[str, str] | None = None) -> None:
        self.status_code = status_code
        self.detail = detail if detail is not None else status.phrase(status_code)
        self.headers = headers
        super().__init__(status_code, self.detail)

    def __repr__(self) -> str:
        return f"HTTPException(status_code={self.status_code!r}, detail={self.detail!r})"


class Param:
    """Where a handler parameter comes from, and its default (`...` when it is required)."""

    source = ""

    def __init__(self, default: Any = ..., *, alias: str | None = None, **options: Any) -> None:
        self.default = default
        self.default_factory = options.pop("default_factory", None)
        self.alias = alias
        self.options = options  # title, description, regex, ge, ...: documentation the binder does not enforce

    @property
    def required(self) -> bool:
        return self.default is ... and self.default_factory is None

    def make_default(self) -> Any:
        return self.default_factory() if self.default_factory is not None else self.default

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.default!r})"


class QueryParam(Param):
    source = "query"


class PathParam(Param):
    source = "path"


class BodyParam(Param):
    source = "body"

    def __init__(self, default: Any = ..., *, embed: bool = False, **options: Any) -> None:
        super().__init__(default, **options)
        self.embed = embed


class HeaderParam(Param):
    source = "header"

    def __init__(self, default: Any = ..., *, convert_underscores: bool = True, **options: Any) -> None:
        super().__init__(default, **options)
        self.convert_underscores = convert_underscores


def Query(default: Any = ..., **options: Any) -> Any:  # noqa: N802 - FastAPI's name
    return QueryParam(default, **options)


def Path(default: Any = ..., **options: Any) -> Any:  # noqa: N802
    return PathParam(default, **options)


def Body(default: Any = ..., **options: Any) -> Any:  # noqa: N802
    return BodyParam(default, **options)


def Header(default: Any = ..., **options: Any) -> Any:  # noqa: N802
    return HeaderParam(default, **options)


class DependsMarker:
    """A parameter filled by calling `dependency`, whose own parameters are bound the same way."""

    def __init__(self, dependency: Callable[..., Any] | None = None, *, use_cache: bool = True) -> None:
        self.dependency = dependency
        self.use_cache = use_cache

    def __repr__(self) -> str:
        return f"Depends({getattr(self.dependency, '__name__', self.dependency)!r})"


def Depends(dependency: Callable[..., Any] | None = None, *, use_cache: bool = True) -> Any:  # noqa: N802
    return DependsMarker(dependency, use_cache=use_cache)


class APIRouter:
    """Records the routes declared on it. The host reports an addon's routers as unsupported: only
    `add_endpoint` routes are served."""

    def __init__(self, *, prefix: str = "", tags: list[str] | None = None, **options: Any) -> None:
        self.prefix = prefix
        self.tags = tags or []
        self.options = options
        self.routes: list[dict[str, Any]] = []

    def add_api_route(self, path: str, endpoint: Callable[..., Any], *, methods: list[str] | None = None,
                      **options: Any) -> None:  # fmt: skip
        for method in methods or ["GET"]:
            self.routes.append({"path": self.prefix + path, "method": method.upper(), "endpoint": endpoint,
                                "options": options})  # fmt: skip

    def api_route(self, path: str, *, methods: list[str] | None = None, **options: Any) -> Callable:
        def register(endpoint: Callable[..., Any]) -> Callable[..., Any]:
            self.add_api_route(path, endpoint, methods=methods, **options)
            return endpoint

        return register

    def get(self, path: str, **options: Any) -> Callable:
        return self.api_route(path, methods=["GET"], **options)

    def post(self, path: str, **options: Any) -> Callable:
        return self.api_route(path, methods=["POST"], **options)

    def put(self, path: str, **options: Any) -> Callable:
        return self.api_route(path, methods=["PUT"], **options)

    def patch(self, path: str, **options: Any) -> Callable:
        return self.api_route(path, methods=["PATCH"], **options)

    def delete(self, path: str, **options: Any) -> Callable:
        return self.api_route(path, methods=["DELETE"], **options)

    def head(self, path: str, **options: Any) -> Callable:
        return self.api_route(path, methods=["HEAD"], **options)

    def websocket(self, path: str, **options: Any) -> Callable:
        return self.api_route(path, methods=["WEBSOCKET"], **options)

    def include_router(self, router: "APIRouter", *, prefix: str = "", **options: Any) -> None:
        for route in router.routes:
            self.routes.append({**route, "path": self.prefix + prefix + route["path"]})
