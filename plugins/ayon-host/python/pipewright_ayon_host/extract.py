"""`python3 -m pipewright_ayon_host extract <addon-directory>`: what the server saves at install, printed as one
JSON object, with nothing connected: {description, schema, defaults, siteSchema, siteDefaults}.

Nothing connected means the studio context with no stored overrides: resolvers that need the server fall back as
AYON does without data (built-in anatomy, default settings) or show AYON's placeholder."""

import json
from typing import Any, BinaryIO

from ayon_server import _bridge
from ayon_server.exceptions import ServiceUnavailableException
from ayon_server.utils.json import to_jsonable

from . import settings_methods
from .description import describe
from .loader import load_package

_STUDIO = {"projectName": None, "variant": None, "userName": None, "siteId": None}


async def extract(directory: str, anatomy: dict[str, Any] | None = None) -> dict[str, Any]:
    """With an anatomy document, the extraction is what a server with that primary anatomy and nothing stored
    answers for the studio: anatomy enums from it, an addon's own settings its defaults, no secrets."""
    loaded = load_package(directory)
    addon = loaded.addon
    if anatomy is not None:
        _bridge.connect(_empty_studio(addon, anatomy))
    try:
        return await _extract(loaded)
    finally:
        _bridge.connect(None)


def _empty_studio(addon, anatomy: dict[str, Any]):
    async def answer(method: str, params: dict[str, Any]) -> Any:
        if method == "anatomy":
            return anatomy
        if method == "settings" and (params.get("addonName"), params.get("addonVersion")) == (addon.name, addon.version):
            return await settings_methods.defaults(addon, {"site": False})
        if method == "secrets":
            return []
        raise ServiceUnavailableException(f"{method} is not answered while extracting")

    return answer


async def _extract(loaded) -> dict[str, Any]:
    addon = loaded.addon
    return {
        "description": await describe(loaded),
        "schema": await settings_methods.schema(addon, {"context": _STUDIO, "site": False}),
        "defaults": await settings_methods.defaults(addon, {"site": False}),
        "siteSchema": await settings_methods.schema(addon, {"context": _STUDIO, "site": True}),
        "siteDefaults": await settings_methods.defaults(addon, {"site": True}),
    }


def write_json(output: BinaryIO, document: Any) -> None:
    output.write(json.dumps(to_jsonable(document, by_alias=False), ensure_ascii=False).encode("utf-8") + b"\n")
    output.flush()
