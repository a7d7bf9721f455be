"""Per-user action configuration (for example applications' "skip last workfile"), stored by the server under a
hash the addon computes (`create_action_config_hash`). The `actionConfig` callback reads (config null) or writes."""

from typing import Any

from ayon_server._bridge import server_call
from ayon_server.actions.context import ActionContext


class ActionConfig(ActionContext):
    value: dict[str, Any] | None = None  # the config to store; None reads it


async def get_action_config(hash: str) -> dict[str, Any]:  # noqa: A002 - AYON's name
    """The config stored under `hash`, {} when there is none."""
    return await server_call("actionConfig", {"hash": hash, "config": None}) or {}


async def set_action_config(
    hash: str,  # noqa: A002
    data: dict[str, Any],
    *,
    addon_name: str | None = None,
    addon_version: str | None = None,
    identifier: str | None = None,
    project_name: str | None = None,
    user_name: str | None = None,
) -> None:
    """Store `data` under `hash` ({} deletes it). The other arguments let the server clean configs up later
    (removed users, archived projects)."""
    await server_call(
        "actionConfig",
        {
            "hash": hash,
            "config": data or {},
            "addonName": addon_name,
            "addonVersion": addon_version,
            "identifier": identifier,
            "projectName": project_name,
            "userName": user_name,
        },
    )
