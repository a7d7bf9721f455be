"""The action methods: simpleActions, dynamicActions, executeAction, actionConfig."""

from typing import Any

from pydantic import ValidationError

from ayon_server.actions import (
    ActionContext,
    ActionExecutor,
    DynamicActionManifest,
    ExecuteResponseModel,
    SimpleActionManifest,
)
from ayon_server.actions.manifest import BaseActionManifest
from ayon_server.addons import BaseServerAddon
from ayon_server.entities import UserEntity
from ayon_server.exceptions import AyonException

from .errors import ProtocolError, validation_errors


def _manifests(
    addon: BaseServerAddon, manifests: list[Any] | None, variant: str, kind: type[BaseActionManifest]
) -> list[dict[str, Any]]:
    """camelCase manifests, with the addon and variant filled in as AYON's listing does."""
    result = []
    for manifest in manifests or []:
        if isinstance(manifest, dict):
            manifest = kind(**manifest)
        manifest.addon_name = manifest.addon_name or addon.name
        manifest.addon_version = manifest.addon_version or addon.version
        manifest.variant = manifest.variant or variant
        result.append(manifest.dict(by_alias=True))
    return result


def _variant(params: dict[str, Any]) -> str:
    return params.get("variant") or "production"


def _context(params: dict[str, Any]) -> ActionContext:
    try:
        return ActionContext(**(params.get("context") or {}))
    except ValidationError as error:
        raise ProtocolError("Invalid action context", errors=validation_errors(error)) from None


def _user(params: dict[str, Any]) -> UserEntity:
    user = params.get("user")
    if not isinstance(user, dict) or not user.get("name"):
        raise ProtocolError("user is required")
    return UserEntity(user)


async def simple_actions(addon: BaseServerAddon, params: dict[str, Any]) -> list[dict[str, Any]]:
    variant = _variant(params)
    return _manifests(addon, await addon.get_simple_actions(params.get("projectName"), variant), variant,
                      SimpleActionManifest)


async def dynamic_actions(addon: BaseServerAddon, params: dict[str, Any]) -> list[dict[str, Any]]:
    variant = _variant(params)
    context = _context(params)
    return _manifests(addon, await addon.get_dynamic_actions(context, variant), variant, DynamicActionManifest)


def _executor(addon: BaseServerAddon, params: dict[str, Any]) -> ActionExecutor:
    identifier = params.get("identifier")
    if not isinstance(identifier, str) or not identifier:
        raise ProtocolError("identifier is required")
    executor = ActionExecutor()
    executor.user = _user(params)
    executor.sender = params.get("sender")
    executor.sender_type = params.get("senderType")
    executor.access_token = params.get("accessToken")
    executor.server_url = params.get("serverUrl") or ""
    executor.addon_name = addon.name
    executor.addon_version = addon.version
    executor.variant = _variant(params)
    executor.identifier = identifier
    executor.context = _context(params)
    return executor


async def execute_action(addon: BaseServerAddon, params: dict[str, Any]) -> dict[str, Any]:
    response = await addon.execute_action(_executor(addon, params))
    if response is None:
        raise AyonException(f"Addon {addon.name} {addon.version} answered nothing to action {params['identifier']}")
    if isinstance(response, dict):
        response = ExecuteResponseModel(**response)
    answer = response.dict()
    uri = (answer.get("payload") or {}).get("uri")
    if uri is not None:
        answer["uri"] = uri  # where older launchers read it
    return answer


async def action_config(addon: BaseServerAddon, params: dict[str, Any]) -> dict[str, Any] | None:
    """Read (config null) or write the calling user's config of an action, through the addon's own methods (it
    decides the key it is stored under)."""
    executor = _executor(addon, params)
    config = params.get("config")
    if config is None:
        return await addon.get_action_config(executor.identifier, executor.context, executor.user, executor.variant)
    if not isinstance(config, dict):
        raise ProtocolError("config must be an object or null")
    await addon.set_action_config(executor.identifier, executor.context, executor.user, executor.variant, config)
    return config
