"""`ServerAddonDefinition`: the loaded versions of one addon, as AYON groups them."""

from typing import TYPE_CHECKING

import semver

if TYPE_CHECKING:
    from ayon_server.addons.addon import BaseServerAddon


def _version_key(version: str) -> tuple:
    """Sort key: semver order, versions semver cannot read first."""
    try:
        return (1, semver.VersionInfo.parse(version))
    except ValueError:
        return (0, version)


class ServerAddonDefinition:
    def __init__(self, name: str) -> None:
        self._name = name
        self._versions: dict[str, "BaseServerAddon"] = {}

    def __repr__(self) -> str:
        return f"<AddonDefinition {self._name} {sorted(self._versions)}>"

    @property
    def name(self) -> str:
        return self._name

    @property
    def versions(self) -> dict[str, "BaseServerAddon"]:
        return self._versions

    @property
    def latest(self) -> "BaseServerAddon | None":
        if not self._versions:
            return None
        return self._versions[max(self._versions, key=_version_key)]

    @property
    def title(self) -> str | None:
        latest = self.latest
        return latest.title if latest else None

    @property
    def friendly_name(self) -> str:
        return self.title or self._name.capitalize()

    @property
    def app_host_name(self) -> str | None:
        return next((addon.app_host_name for addon in self._versions.values() if addon.app_host_name), None)

    @property
    def project_can_override_addon_version(self) -> bool:
        return any(addon.get_project_can_override_addon_version() for addon in self._versions.values())

    @property
    def is_system(self) -> bool:
        return any(addon.system for addon in self._versions.values())

    @property
    def addon_type(self) -> str:
        latest = self.latest
        return latest.addon_type if latest else "pipeline"

    def __getitem__(self, version: str) -> "BaseServerAddon":
        return self._versions[version]

    def __contains__(self, version: str) -> bool:
        return version in self._versions

    def get(self, version: str | None, default: "BaseServerAddon | None" = None) -> "BaseServerAddon | None":
        return self._versions.get(version, default) if version is not None else default

    def unload_version(self, version: str) -> None:
        self._versions.pop(version, None)
