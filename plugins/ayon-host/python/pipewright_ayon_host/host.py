"""The methods the server calls, and the addon versions they act on."""

import platform
from collections.abc import Awaitable, Callable
from typing import Any

import pydantic

import ayon_server
from ayon_server.addons import BaseServerAddon
from ayon_server.exceptions import NotFoundException

from . import action_methods, endpoint_methods, settings_methods
from .description import describe
from .errors import ProtocolError
from .loader import LoadedAddon, load_package, unload

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
        self.loaded[key] = loaded
        return await describe(loaded)

    def _addon(self, params: dict[str, Any]) -> BaseServerAddon:
        key = _addon_key(params)
        loaded = self.loaded.get(key)
        if loaded is None:
            raise NotFoundException(f"Addon {key[0]} {key[1]} is not loaded")
        return loaded.addon


def _addon_key(params: dict[str, Any]) -> tuple[str, str]:
    name, version = params.get("name"), params.get("version")
    if not isinstance(name, str) or not isinstance(version, str):
        raise ProtocolError("name and version are required")
    return name, version
