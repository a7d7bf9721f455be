"""The one door from addon code to the Pipewright server.

The host connects a transport at start; every read of studio data (anatomy, projects, entities, secrets, settings of
other layers, events) is `await server_call(method, params)`. Outside the host (a plain `import` in a test) nothing
is connected, and callers fall back to what AYON does without data, or fail with a clear message.
"""

from typing import Any, Awaitable, Callable

Transport = Callable[[str, dict], Awaitable[Any]]

_transport: Transport | None = None


def connect(transport: Transport | None) -> None:
    """Set (or clear, with None) the function that carries calls to the server."""
    global _transport
    _transport = transport


def connected() -> bool:
    return _transport is not None


async def server_call(method: str, params: dict | None = None) -> Any:
    """Ask the server; its errors arrive as the matching AyonException (404 as NotFoundException, ...)."""
    if _transport is None:
        from ayon_server.exceptions import ServiceUnavailableException

        raise ServiceUnavailableException(
            f"{method} needs the Pipewright server, and this code is not running in its addon host"
        )
    return await _transport(method, params or {})
