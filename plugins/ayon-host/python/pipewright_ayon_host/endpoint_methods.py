"""The `endpoint` method: call an addon's endpoint handler with a request the server forwarded, and turn what
it returns into the answer the server sends to the client."""

import base64
import inspect
import os
from typing import Any

from fastapi import Request
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from pydantic import ValidationError

from ayon_server.addons import BaseServerAddon
from ayon_server.entities import UserEntity
from ayon_server.exceptions import NotFoundException
from ayon_server.utils.json import to_jsonable

from .binder import Binder
from .errors import ProtocolError


class HandlerError(Exception):
    """An endpoint handler failing in a way that is its own fault: answered 500, with the traceback."""


def _find_endpoint(addon: BaseServerAddon, method: str, path: str) -> dict[str, Any]:
    for endpoint in addon.endpoints:
        if endpoint["method"] == method and endpoint["path"].strip("/") == path.strip("/"):
            return endpoint
    raise NotFoundException(f"Addon {addon.name} {addon.version} has no endpoint {method} {path}")


def _request(addon: BaseServerAddon, params: dict[str, Any]) -> Request:
    body = params.get("body")
    try:
        content = base64.b64decode(body, validate=True) if body else b""
    except (ValueError, TypeError):
        raise ProtocolError("body must be base64 or null") from None
    query = params.get("query") or {}
    user = params.get("user")
    request = Request(
        method=params.get("method") or "GET",
        path=params.get("path") or "",
        headers={str(name): str(value) for name, value in (params.get("headers") or {}).items()},
        query={str(name): [str(item) for item in (values if isinstance(values, list) else [values])]
               for name, values in query.items()},  # fmt: skip
        path_params={str(name): str(value) for name, value in (params.get("pathParams") or {}).items()},
        body=content,
        user=UserEntity(user) if isinstance(user, dict) and user.get("name") else None,
    )
    request.state.addon = addon
    return request


async def _collect(iterator: Any) -> bytes:
    chunks = []
    if hasattr(iterator, "__aiter__"):
        async for chunk in iterator:
            chunks.append(chunk)
    else:
        chunks.extend(iterator)
    return b"".join(chunk.encode("utf-8") if isinstance(chunk, str) else bytes(chunk) for chunk in chunks)


async def answer_of(result: Any) -> dict[str, Any]:
    """The endpoint answer for what a handler returned."""
    if isinstance(result, FileResponse):
        if not os.path.isfile(result.path):
            raise NotFoundException(f"File {os.path.basename(result.path)} not found")
        return {"status": result.status_code, "headers": result.headers, "file": result.path}
    if isinstance(result, JSONResponse):
        return {"status": result.status_code, "headers": result.headers, "json": to_jsonable(result.content)}
    if isinstance(result, StreamingResponse):
        result.body = await _collect(result.iterator)
    if isinstance(result, Response):
        return {"status": result.status_code, "headers": result.headers,
                "bodyBase64": base64.b64encode(result.body).decode("ascii")}  # fmt: skip
    return {"status": 200, "headers": {}, "json": to_jsonable(result)}


async def call_endpoint(addon: BaseServerAddon, params: dict[str, Any]) -> dict[str, Any]:
    method = str(params.get("method") or "GET").upper()
    path = params.get("path")
    if not isinstance(path, str):
        raise ProtocolError("path is required")
    endpoint = _find_endpoint(addon, method, path)
    binder = Binder(_request(addon, params))
    arguments = await binder.arguments(endpoint["handler"])  # a request that does not fit answers 422 here
    try:
        result = endpoint["handler"](**arguments)
        if inspect.isawaitable(result):
            result = await result
    except ValidationError as error:
        # a model the handler itself failed to build: a bug in the addon (FastAPI answers 500), not bad settings
        raise HandlerError(f"{endpoint['name']} built an invalid {error.model.__name__}") from error
    return await answer_of(result)
