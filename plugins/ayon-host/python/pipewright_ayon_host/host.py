"""The methods the server calls, and the addon versions they act on."""

import inspect
import platform
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

import pydantic

import ayon_server
from ayon_server.addons import BaseServerAddon
from ayon_server.exceptions import AyonException, NotFoundException

from . import action_methods, endpoint_methods, settings_methods
from .description import describe
from .errors import ProtocolError, one_line
from .loader import LoadedAddon, LoadError, load_package, unload

AddonMethod = Callable[[BaseServerAddon, dict[str, Any]], Awaitable[Any]]

ADDON_METHODS: dict[str, AddonMethod] = {
    "schema": settings_methods.schema,
    "defaults": settings_methods.defaults,
    "stack": settings_methods.stack,
    "extract": settings_methods.extract,
    "overrides": settings_methods.overrides,
    "pin": settings_methods.pin,
    "siteSettings": settings_methods.site_settings,
    "convert": settings_methods.convert,
    "simpleActions": action_methods.simple_actions,
    "dynamicActions": action_methods.dynamic_actions,
    "executeAction": action_methods.execute_action,
    "actionConfig": action_methods.action_config,
    "endpoint": endpoint_methods.call_endpoint,
}


class Host:
    def __init__(self) -> None:
        self.loaded: dict[tuple[str, str], LoadedAddon] = {}

    async def handle(self, method: str, params: dict[str, Any]) -> Any:
        if method == "hello":
            return {"python": platform.python_version(), "pydantic": pydantic.VERSION,
                    "ayonServer": ayon_server.__version__}  # fmt: skip
        if method == "load":
            return await self.load(params)
        if method == "unload":
            loaded = self.loaded.pop(_addon_key(params), None)
            if loaded is not None:
                unload(loaded)
            return None
        if (addon_method := ADDON_METHODS.get(method)) is None:
            raise ProtocolError(f"Unknown method {method}")
        return await addon_method(self._addon(params), params)

    async def load(self, params: dict[str, Any]) -> dict[str, Any]:
        directory = params.get("directory")
        if not isinstance(directory, str) or not directory:
            raise ProtocolError("directory is required")
        key = _addon_key(params)
        # a version loaded again (reinstalled) replaces the previous import
        if (previous := self.loaded.pop(key, None)) is not None:
            unload(previous)
        loaded = load_package(directory, expected=key)
        try:
            await _set_up(loaded.addon)
        except BaseException as error:  # noqa: BLE001 - addon code may raise anything
            unload(loaded)
            raise LoadError(
                f"Addon {key[0]} {key[1]} failed to set up: {error.detail if isinstance(error, AyonException) else one_line(error)}",
                "".join(traceback.format_exception(type(error), error, error.__traceback__)),
            ) from error
        self.loaded[key] = loaded
        return await describe(loaded)

    def _addon(self, params: dict[str, Any]) -> BaseServerAddon:
        key = _addon_key(params)
        loaded = self.loaded.get(key)
        if loaded is None:
            raise NotFoundException(f"Addon {key[0]} {key[1]} is not loaded")
        return loaded.addon


async def _set_up(addon: BaseServerAddon) -> None:
    """AYON runs pre_setup, then setup, once an addon is loaded (awaited when they are coroutines); a failure makes
    the addon broken, as on AYON."""
    for hook in (addon.pre_setup, addon.setup):
        result = hook()
        if inspect.isawaitable(result):
            await result


def _addon_key(params: dict[str, Any]) -> tuple[str, str]:
    name, version = params.get("name"), params.get("version")
    if not isinstance(name, str) or not isinstance(version, str):
        raise ProtocolError("name and version are required")
    return name, version
