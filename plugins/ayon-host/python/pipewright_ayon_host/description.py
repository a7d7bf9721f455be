"""The description `load` answers: what the server needs to list, route and serve an addon version."""

from typing import Any

from ayon_server.addons import BaseServerAddon
from ayon_server.events.eventstream import EventStream

from .loader import LoadedAddon


def overrides_method(addon: BaseServerAddon, name: str) -> bool:
    """Whether the addon's class replaces BaseServerAddon's `name`: how an addon says it offers actions."""
    return getattr(type(addon), name, None) is not getattr(BaseServerAddon, name)


async def describe(loaded: LoadedAddon) -> dict[str, Any]:
    addon = loaded.addon
    compatibility = addon.compatibility
    return {
        "name": addon.name,
        "version": addon.version,
        "title": addon.title or addon.name.capitalize(),
        "addonType": addon.addon_type,
        "system": bool(addon.system),
        "services": addon.services or {},
        "appHostNames": await addon.get_app_host_names(),
        "projectCanOverrideAddonVersion": bool(addon.get_project_can_override_addon_version()),
        "clientDir": getattr(addon, "client_dir", None),
        "ayonServerVersion": compatibility.server_version if compatibility else None,
        "ayonLauncherVersion": compatibility.launcher_version if compatibility else None,
        "requiredAddons": (compatibility.required_addons if compatibility else None) or {},
        "softRequiredAddons": (compatibility.soft_required_addons if compatibility else None) or {},
        "compatibleAddons": (compatibility.compatible_addons if compatibility else None) or {},
        "frontendScopes": await addon.get_frontend_scopes() or {},
        "hasSettings": addon.get_settings_model() is not None,
        "hasSiteSettings": addon.get_site_settings_model() is not None,
        "hasSimpleActions": overrides_method(addon, "get_simple_actions"),
        "hasDynamicActions": overrides_method(addon, "get_dynamic_actions"),
        "endpoints": [
            {
                "path": endpoint["path"],
                "method": endpoint["method"],
                "name": endpoint["name"],
                "description": endpoint["description"],
            }
            for endpoint in addon.endpoints
        ],
        "subscriptions": EventStream.topics_of(addon),
        "unsupported": loaded.unsupported,
    }
