"""`AddonLibrary`: the addon versions loaded in this host, read-only to addon code (the host loads and unloads).
Which versions the bundles use comes from the server (`bundles` callback)."""

from collections.abc import ItemsView
from typing import Any

from ayon_server._bridge import server_call
from ayon_server.addons.addon import BaseServerAddon
from ayon_server.addons.definition import ServerAddonDefinition
from ayon_server.exceptions import NotFoundException


class AddonLibrary:
    _instance: "AddonLibrary | None" = None

    def __init__(self) -> None:
        self.data: dict[str, ServerAddonDefinition] = {}
        self.broken_addons: dict[tuple[str, str], dict[str, str]] = {}
        self.restart_requested = False

    @classmethod
    def getinstance(cls) -> "AddonLibrary":
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    # --- lookups ------------------------------------------------------------------------------------------------

    @classmethod
    def addon(cls, name: str, version: str) -> BaseServerAddon:
        """The loaded version; NotFoundException when it is not loaded."""
        definition = cls.getinstance().data.get(name)
        if definition is None:
            raise NotFoundException(f"Addon {name} does not exist")
        addon = definition.get(version)
        if addon is None:
            raise NotFoundException(f"Addon {name} version {version} does not exist")
        return addon

    @classmethod
    def items(cls) -> ItemsView[str, ServerAddonDefinition]:
        return cls.getinstance().data.items()

    @classmethod
    def get(cls, key: str, default: Any = None) -> ServerAddonDefinition | None:
        return cls.getinstance().data.get(key, default)

    def __getitem__(self, key: str) -> ServerAddonDefinition:
        return self.data[key]

    def __contains__(self, key: str) -> bool:
        return key in self.data

    def __iter__(self):
        return iter(self.data)

    @classmethod
    def is_broken(cls, addon_name: str, addon_version: str) -> dict[str, str] | None:
        return cls.getinstance().broken_addons.get((addon_name, addon_version))

    def get_broken_versions(self, addon_name: str) -> dict[str, dict[str, str]]:
        return {version: reason for (name, version), reason in self.broken_addons.items() if name == addon_name}

    # --- bundles ------------------------------------------------------------------------------------------------

    async def get_active_versions(self) -> dict[str, dict[str, str | None]]:
        """For each loaded addon, its version in the production and staging bundles and in each dev bundle."""
        bundles = await server_call("bundles", {}) or {}
        by_variant: dict[str, dict[str, str]] = {
            "production": bundles.get("production") or {},
            "staging": bundles.get("staging") or {},
            **{name: addons or {} for name, addons in (bundles.get("dev") or {}).items()},
        }
        return {
            addon_name: {variant: addons.get(addon_name) for variant, addons in by_variant.items()}
            for addon_name in self.data
        }

    async def get_addon_versions_by_variant(self, variant: str) -> dict[str, str | None]:
        active = await self.get_active_versions()
        return {addon_name: versions.get(variant) for addon_name, versions in active.items()}

    async def get_addons_by_variant(self, variant: str) -> dict[str, BaseServerAddon | None]:
        result: dict[str, BaseServerAddon | None] = {}
        for addon_name, version in (await self.get_addon_versions_by_variant(variant)).items():
            if not version:
                result[addon_name] = None
            elif (addon := self.data[addon_name].get(version)) is not None:
                result[addon_name] = addon
        return result

    async def get_addon_by_variant(self, addon_name: str, variant: str) -> BaseServerAddon | None:
        version = (await self.get_addon_versions_by_variant(variant)).get(addon_name)
        return self.data[addon_name].get(version) if version else None

    async def get_production_addon(self, addon_name: str) -> BaseServerAddon | None:
        return await self.get_addon_by_variant(addon_name, "production")

    async def get_staging_addon(self, addon_name: str) -> BaseServerAddon | None:
        return await self.get_addon_by_variant(addon_name, "staging")

    # --- kept by the host ---------------------------------------------------------------------------------------

    def _definition_for(self, name: str) -> ServerAddonDefinition:
        """The definition a new version of `name` joins (created when it is the first)."""
        return self.data.setdefault(name, ServerAddonDefinition(name))

    def _register(self, addon: BaseServerAddon) -> None:
        self._definition_for(addon.name).versions[addon.version] = addon
        self.broken_addons.pop((addon.name, addon.version), None)

    def _mark_broken(self, name: str, version: str, reason: dict[str, str]) -> None:
        self.broken_addons[(name, version)] = reason

    @classmethod
    def unload_addon(cls, addon_name: str, addon_version: str, reason: dict[str, str] | None = None) -> None:
        library = cls.getinstance()
        if reason is not None:
            library._mark_broken(addon_name, addon_version, reason)
        definition = library.data.get(addon_name)
        if definition is None:
            return
        definition.unload_version(addon_version)
        if not definition.versions:
            del library.data[addon_name]
