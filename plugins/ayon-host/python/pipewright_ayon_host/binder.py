"""Binding an endpoint handler's parameters from a forwarded request, the way FastAPI would.

Debian's FastAPI predates `Annotated[..., Depends(...)]`, so the host binds handlers itself:
- `Depends(function)` (also inside `Annotated`, as AYON's `CurrentUser` or `ProjectName`): the function's own
  parameters are bound the same way, then it is called (awaited when async);
- `Request`: the forwarded request; a `UserEntity` annotation: the calling user;
- `Path(...)`, or a parameter named like a path parameter: the path value;
- `Query(...)`, or any other plain-typed parameter: query values (every value for list types, else the last);
- `Header(...)`: the header, underscores read as hyphens;
- `Body(...)`, a pydantic model, a dict or list annotation: the JSON body.
Values are converted to the annotation with pydantic; a value that does not fit answers 422, as FastAPI does."""

import inspect
import json
import typing
from typing import Any, Callable

from fastapi import DependsMarker, Param, Request
from pydantic import BaseModel, ValidationError, parse_obj_as

from ayon_server.api.dependencies import UnprocessableEntityException
from ayon_server.entities import UserEntity
from ayon_server.exceptions import UnauthorizedException

from .errors import validation_errors

_EMPTY = inspect.Parameter.empty


class InvalidRequest(UnprocessableEntityException):
    def __init__(self, detail: str, errors: list[dict[str, Any]] | None = None) -> None:
        super().__init__(detail)
        self.errors = errors or []


def _annotations(function: Callable[..., Any]) -> dict[str, Any]:
    """The handler's resolved annotations, Annotated kept; a name that cannot be resolved (imported only for
    type checking) stays unresolved and binds as an untyped value."""
    try:
        return typing.get_type_hints(function, include_extras=True)
    except Exception:  # noqa: BLE001 - unresolvable forward references: fall back parameter by parameter
        pass
    namespace = getattr(function, "__globals__", {})
    resolved = {}
    for name, annotation in getattr(function, "__annotations__", {}).items():
        if isinstance(annotation, str):
            try:
                annotation = eval(annotation, namespace)  # noqa: S307 - the addon's own annotation text
            except Exception:  # noqa: BLE001
                annotation = _EMPTY
        resolved[name] = annotation
    return resolved


def _unwrap_annotated(annotation: Any) -> tuple[Any, list[Any]]:
    if typing.get_origin(annotation) is typing.Annotated:
        return annotation.__origin__, list(annotation.__metadata__)
    return annotation, []


def _without_none(annotation: Any) -> Any:
    """`X | None` -> X, for deciding how to read a value."""
    arguments = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, _UNION_TYPE) and len(arguments) == 1:
        return arguments[0]
    return annotation


_UNION_TYPE = type(int | None)


def _is_sequence(annotation: Any) -> bool:
    return typing.get_origin(_without_none(annotation)) in (list, set, tuple, frozenset) or _without_none(
        annotation
    ) in (list, set, tuple)


def _is_body_type(annotation: Any) -> bool:
    candidate = _without_none(annotation)
    origin = typing.get_origin(candidate) or candidate
    if isinstance(origin, type) and issubclass(origin, BaseModel | dict):
        return True
    if origin in (list, tuple) and (arguments := typing.get_args(candidate)):
        item = _without_none(arguments[0])
        return isinstance(item, type) and issubclass(item, BaseModel)
    return False


def _subclass(annotation: Any, base: type) -> bool:
    candidate = _without_none(annotation)
    return isinstance(candidate, type) and issubclass(candidate, base)


def convert(value: Any, annotation: Any, where: str, location: list[str]) -> Any:
    """`value` as the annotation's type; a 422 whose errors are located as FastAPI locates them (["query",
    "limit"], ["body", "text"])."""
    if annotation is _EMPTY or annotation is Any:
        return value
    try:
        return parse_obj_as(annotation, value)
    except ValidationError as error:
        errors = validation_errors(error)
        for item in errors:
            item["loc"] = location + [part for part in item["loc"] if part != "__root__"]
        raise InvalidRequest(f"Invalid {where}", errors) from None
    except (TypeError, RuntimeError):  # a type pydantic cannot check (an addon's own class): pass it as it is
        return value


class Binder:
    def __init__(self, request: Request) -> None:
        self.request = request
        self._dependency_results: dict[Any, Any] = {}
        self._body: Any = _EMPTY

    async def call(self, function: Callable[..., Any]) -> Any:
        result = function(**await self.arguments(function))
        return await result if inspect.isawaitable(result) else result

    async def arguments(self, function: Callable[..., Any]) -> dict[str, Any]:
        annotations = _annotations(function)
        parameters = [
            parameter
            for parameter in inspect.signature(function).parameters.values()
            if parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
        ]
        plans = [self._plan(parameter, annotations.get(parameter.name, parameter.annotation))
                 for parameter in parameters]  # fmt: skip
        body_count = sum(1 for plan in plans if plan[0] == "body")
        values = {}
        for parameter, (source, annotation, marker) in zip(parameters, plans):
            values[parameter.name] = await self._value(parameter, source, annotation, marker, embed=body_count > 1)
        return values

    def _plan(self, parameter: inspect.Parameter, annotation: Any) -> tuple[str, Any, Any]:
        """(source, value type, marker) of one parameter."""
        base, metadata = _unwrap_annotated(annotation)
        markers = [item for item in metadata if isinstance(item, Param | DependsMarker)]
        if isinstance(parameter.default, Param | DependsMarker):
            markers.append(parameter.default)
        marker = markers[0] if markers else None
        if isinstance(marker, DependsMarker):
            return "depends", base, marker
        if isinstance(marker, Param):
            return marker.source, base, marker
        if _subclass(base, Request):
            return "request", base, None
        if _subclass(base, UserEntity):
            return "user", base, None
        if parameter.name in self.request.path_params:
            return "path", base, None
        if _is_body_type(base):
            return "body", base, None
        return "query", base, None

    async def _value(self, parameter: inspect.Parameter, source: str, annotation: Any, marker: Any,
                     embed: bool) -> Any:  # fmt: skip
        name = parameter.name
        if source == "depends":
            return await self._dependency(marker.dependency or annotation, marker.use_cache)
        if source == "request":
            return self.request
        if source == "user":
            if self.request.state.user is None and parameter.default is _EMPTY:
                raise UnauthorizedException()
            return self.request.state.user
        default = marker.make_default() if isinstance(marker, Param) else parameter.default
        key = (marker.alias if isinstance(marker, Param) and marker.alias else None) or name

        if source == "path":
            raw = self.request.path_params.get(key, _EMPTY)
            where, location = f"path parameter {key}", ["path", key]
        elif source == "header":
            convert_underscores = getattr(marker, "convert_underscores", True)
            header = (marker.alias if marker.alias else key.replace("_", "-") if convert_underscores else key)
            raw = self.request.headers.get(header, _EMPTY)
            where, location = f"header {header}", ["header", header]
        elif source == "body":
            embedded = embed or bool(getattr(marker, "embed", False))
            raw = await self._body_value(key, embedded)
            where, location = "body", ["body", key] if embedded else ["body"]
        else:
            values = self.request.query_params.getlist(key)
            raw = (values if _is_sequence(annotation) else values[-1]) if values else _EMPTY
            where, location = f"query parameter {key}", ["query", key]

        if raw is _EMPTY:
            if default is ... or default is _EMPTY:
                raise InvalidRequest(f"Missing {where}")
            return default
        return convert(raw, annotation, where, location)

    async def _body_value(self, key: str, embedded: bool) -> Any:
        if self._body is _EMPTY:
            data = await self.request.body()
            try:
                self._body = json.loads(data) if data else _EMPTY
            except (UnicodeDecodeError, json.JSONDecodeError):
                raise InvalidRequest("The body is not JSON") from None
        if self._body is _EMPTY:
            return _EMPTY
        if embedded:
            return self._body.get(key, _EMPTY) if isinstance(self._body, dict) else _EMPTY
        return self._body

    async def _dependency(self, dependency: Callable[..., Any], use_cache: bool) -> Any:
        if use_cache and dependency in self._dependency_results:
            return self._dependency_results[dependency]
        result = await self.call(dependency)
        if use_cache:
            self._dependency_results[dependency] = result
        return result
