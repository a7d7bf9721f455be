"""The settings methods: schema, defaults, stack, extract, overrides, pin, siteSettings, convert.

The server stores override layers and sends them; the addon's own models, validators, resolvers and conversions
run here, with AYON's machinery from `ayon_server.settings`."""

import copy
import inspect
from typing import Any

from ayon_server.addons import BaseServerAddon
from ayon_server.exceptions import BadRequestException
from ayon_server.settings import (
    BaseSettingsModel,
    apply_overrides,
    extract_overrides,
    list_overrides,
    pin_override,
    postprocess_settings_schema,
)

from .errors import ProtocolError


def _layers(params: dict[str, Any], key: str = "layers") -> list[dict[str, Any]]:
    layers = params.get(key) or []
    if not isinstance(layers, list) or not all(isinstance(layer, dict) for layer in layers):
        raise ProtocolError(f"{key} must be a list of override objects")
    return layers


async def _stacked(addon: BaseServerAddon, layers: list[dict[str, Any]]) -> list[BaseSettingsModel]:
    """Defaults, then each layer applied in turn."""
    settings = await addon.get_default_settings()
    if settings is None:
        raise BadRequestException(f"Addon {addon.name} {addon.version} has no settings")
    stages = [settings]
    for layer in layers:
        stages.append(apply_overrides(stages[-1], layer))
    return stages


def _schema_context(addon: BaseServerAddon, context: dict[str, Any]) -> dict[str, Any]:
    """What AYON passes enum resolvers, by parameter name; absent values are left out, so resolvers use their
    own defaults."""
    resolver_context: dict[str, Any] = {"addon": addon, "settings_variant": context.get("variant") or "production"}
    for key, name in (("projectName", "project_name"), ("userName", "user_name"), ("siteId", "site_id")):
        if context.get(key) is not None:
            resolver_context[name] = context[key]
    return resolver_context


async def schema(addon: BaseServerAddon, params: dict[str, Any]) -> dict[str, Any] | None:
    model = addon.get_site_settings_model() if params.get("site") else addon.get_settings_model()
    if model is None:
        return None
    document = copy.deepcopy(model.schema())
    await postprocess_settings_schema(document, model, context=_schema_context(addon, params.get("context") or {}))
    document["title"] = addon.friendly_name
    return document


async def defaults(addon: BaseServerAddon, params: dict[str, Any]) -> dict[str, Any] | None:
    if params.get("site"):
        model = addon.get_site_settings_model()
        return None if model is None else model().dict()
    settings = await addon.get_default_settings()
    return None if settings is None else settings.dict()


async def stack(addon: BaseServerAddon, params: dict[str, Any]) -> list[dict[str, Any]] | None:
    if addon.get_settings_model() is None:
        return None
    return [stage.dict() for stage in await _stacked(addon, _layers(params))]


async def extract(addon: BaseServerAddon, params: dict[str, Any]) -> dict[str, Any]:
    """The overrides a level stores when the editor saves `payload` there."""
    inherited = (await _stacked(addon, _layers(params)))[-1]
    own = params.get("own") or {}
    payload = dict(params.get("payload") or {})
    # the editor may still send its pin lists inside the payload, as AYON's does
    pins = params.get("pins") or payload.pop("__pinned_fields__", None) or []
    unpins = params.get("unpins") or payload.pop("__unpinned_fields__", None) or []
    payload.pop("__pinned_fields__", None)
    payload.pop("__unpinned_fields__", None)
    edited = apply_overrides(apply_overrides(inherited, own), payload)
    return extract_overrides(inherited, edited, existing=own, explicit_pins=pins, explicit_unpins=unpins)


async def overrides(addon: BaseServerAddon, params: dict[str, Any]) -> dict[str, Any]:
    """AYON's override map: each layer listed against the settings it produces, later levels over earlier."""
    layers = _layers(params)
    for layer in layers:
        if layer.get("level") not in ("studio", "project", "site"):
            raise ProtocolError("each layer needs a level: studio, project or site")
    stages = await _stacked(addon, [layer.get("data") or {} for layer in layers])
    result: dict[str, Any] = {}
    for layer, settings in zip(layers, stages[1:]):
        result.update(list_overrides(settings, layer.get("data") or {}, level=layer["level"]))
    return result


async def pin(addon: BaseServerAddon, params: dict[str, Any]) -> dict[str, Any]:
    path = params.get("path")
    if not isinstance(path, list) or not path:
        raise ProtocolError("path must be a non-empty list of keys")
    own = params.get("own") or {}
    current = apply_overrides((await _stacked(addon, _layers(params)))[-1], own)
    return pin_override(current, own, [str(key) for key in path])


async def site_settings(addon: BaseServerAddon, params: dict[str, Any]) -> dict[str, Any] | None:
    model = addon.get_site_settings_model()
    return None if model is None else model(**(params.get("data") or {})).dict()


async def convert(addon: BaseServerAddon, params: dict[str, Any]) -> dict[str, Any]:
    """Overrides stored by `fromVersion`, converted by this (the target) version. The project name is passed
    only to conversions that declare it, as AYON does."""
    source_version = params.get("fromVersion")
    if not isinstance(source_version, str):
        raise ProtocolError("fromVersion is required")
    overrides_data = copy.deepcopy(params.get("overrides") or {})  # conversions edit in place
    options: dict[str, Any] = {}
    if "project_name" in inspect.signature(addon.convert_settings_overrides).parameters:
        options["project_name"] = params.get("projectName")
    return await addon.convert_settings_overrides(source_version, overrides_data, **options)
