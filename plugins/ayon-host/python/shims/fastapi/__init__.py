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
    """Where a handler parameter comes from (`source`: query, path, body or header), its default (`...` when it is
    required), and what only some sources read: `embed` (a body), `convert_underscores` (a header)."""

    def __init__(
        self,
        source: str,
        default: Any = ...,
        *,
        alias: str | None = None,
        default_factory: Callable[[], Any] | None = None,
        embed: bool = False,
        convert_underscores: bool = True,
        **options: Any,
    ) -> None:
        self.source = source
        self.default = default
        self.default_factory = default_factory
        self.alias = alias
        self.embed = embed
        self.convert_underscores = convert_underscores
        self.options = options  # title, description, regex, ge, ...: documentation the binder does not enforce

    @property
    def required(self) -> bool:
        return self.default is ... and self.default_factory is None

    def make_default(self) -> Any:
        return self.default_factory() if self.default_factory is not None else self.default

    def __repr__(self) -> str:
        return f"{self.source.title()}({self.default!r})"


def _param_marker(source: str) -> Callable[..., Any]:
    """FastAPI's `Query`, `Path`, `Body` or `Header`: a Param taking its value from `source`."""

    def marker(default: Any = ..., **options: Any) -> Any:
        return Param(source, default, **options)

    marker.__name__ = marker.__qualname__ = source.title()
    return marker


Query = _param_marker("query")
Path = _param_marker("path")
Body = _param_marker("body")
Header = _param_marker("header")


class DependsMarker:
    """A parameter filled by calling `dependency`, whose own parameters are bound the same way."""

    def __init__(self, dependency: Callable[..., Any] | None = None, *, use_cache: bool = True) -> None:
        self.dependency = dependency
        self.use_cache = use_cache

    def __repr__(self) -> str:
        return f"Depends({getattr(self.dependency, '__name__', self.dependency)!r})"


def Depends(dependency: Callable[..., Any] | None = None, *, use_cache: bool = True) -> Any:  # noqa: N802
    return DependsMarker(dependency, use_cache=use_cache)


def _route_decorator(method: str) -> Callable[..., Callable]:
    """`router.get(path, ...)` and its siblings: `api_route` for one method."""

    def decorator(self, path: str, **options: Any) -> Callable:
        return self.api_route(path, methods=[method], **options)

    decorator.__name__ = decorator.__qualname__ = method.lower()
    return decorator


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

    get = _route_decorator("GET")
    post = _route_decorator("POST")
    put = _route_decorator("PUT")
    patch = _route_decorator("PATCH")
    delete = _route_decorator("DELETE")
    head = _route_decorator("HEAD")
    websocket = _route_decorator("WEBSOCKET")

    def include_router(self, router: "APIRouter", *, prefix: str = "", **options: Any) -> None:
        for route in router.routes:
            self.routes.append({**route, "path": self.prefix + prefix + route["path"]})
