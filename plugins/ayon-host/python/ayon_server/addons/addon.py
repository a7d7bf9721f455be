"""`BaseServerAddon`: the class every AYON addon's server part derives from.

What AYON reads from its database, this class asks the Pipewright server for: an addon's effective settings at
a level come from the `settings` callback (the server stacks its stored overrides through the host's `stack`).
With no server connected (extracting at install) there are no overrides, so the settings are the defaults."""

import os
import tomllib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from ayon_server import _bridge
from ayon_server.actions.config import get_action_config, set_action_config
from ayon_server.actions.context import ActionContext
from ayon_server.actions.execute import ActionExecutor, ExecuteResponseModel
from ayon_server.actions.manifest import DynamicActionManifest, SimpleActionManifest
from ayon_server.exceptions import AyonException, BadRequestException, NotImplementedException
from ayon_server.logging import logger
from ayon_server.settings import BaseSettingsModel
from ayon_server.settings.common import migrate_settings_overrides
from ayon_server.utils import hash_data

if TYPE_CHECKING:
    from fastapi import APIRouter

    from ayon_server.addons.definition import ServerAddonDefinition
    from ayon_server.entities import UserEntity

# package.py names copied onto the addon (AYON's list)
METADATA_KEYS = [
    "name",
    "version",
    "title",
    "services",
    "app_host_name",
    "project_can_override_addon_version",
    "ayon_server_version",
    "ayon_launcher_version",
    "ayon_required_addons",
    "ayon_soft_required_addons",
    "ayon_compatible_addons",
]

_COMPATIBILITY_KEYS = {
    "ayon_server_version": "server_version",
    "ayon_launcher_version": "launcher_version",
    "ayon_required_addons": "required_addons",
    "ayon_soft_required_addons": "soft_required_addons",
    "ayon_compatible_addons": "compatible_addons",
}


class AddonCompatibilityModel(BaseSettingsModel):
    server_version: str | None = None
    launcher_version: str | None = None
    required_addons: dict[str, str | None] | None = None
    soft_required_addons: dict[str, str | None] | None = None
    compatible_addons: dict[str, str | None] | None = None


class BaseServerAddon:
    # from package.py
    name: str
    version: str
    title: str | None = None
    services: dict[str, Any] = {}
    project_can_override_addon_version: bool = False

    # set by the addon class
    addon_type: Literal["server", "pipeline"] = "pipeline"
    system: bool = False
    settings_model: type[BaseSettingsModel] | None = None
    site_settings_model: type[BaseSettingsModel] | None = None
    app_host_name: str | None = None
    frontend_scopes: dict[str, Any] = {}
    frontend_modules: dict[str, Any] = {}

    compatibility: AddonCompatibilityModel | None = None
    legacy: bool = False

    def __init__(self, definition: "ServerAddonDefinition", addon_dir: str, **metadata: Any) -> None:
        self.compatibility = AddonCompatibilityModel(
            **{field: metadata.pop(key, None) for key, field in _COMPATIBILITY_KEYS.items()}
        )
        for key in METADATA_KEYS:
            if key in metadata:
                setattr(self, key, metadata[key])
        if not (getattr(self, "name", None) and getattr(self, "version", None)):
            raise AssertionError(f"Addon {addon_dir} is missing name or version")

        self.definition = definition
        self.addon_dir = addon_dir
        self.endpoints: list[dict[str, Any]] = []
        self.routers: list["APIRouter"] = []
        self.restart_requested = False
        logger.debug(f"Initializing addon {self.name} v{self.version}")
        self.initialize()

    def __repr__(self) -> str:
        return f"<Addon name='{self.name}' version='{self.version}'>"

    @property
    def friendly_name(self) -> str:
        """"<title> <version>": the settings schema's title."""
        return f"{self.title or self.name.capitalize()} {self.version}"

    def get_project_can_override_addon_version(self) -> bool:
        return self.project_can_override_addon_version

    async def is_production(self) -> bool:
        """Whether this version is the production bundle's."""
        bundles = await _bridge.server_call("bundles", {}) or {}
        return (bundles.get("production") or {}).get(self.name) == self.version

    # --- hooks --------------------------------------------------------------------------------------------------

    def initialize(self) -> None:
        """Override to register endpoints (add_endpoint) and subscriptions. Synchronous, run by the constructor."""

    def pre_setup(self) -> None:
        """Override for work that needs the other addons loaded (may be async)."""

    def setup(self) -> None:
        """Override for work after every addon's pre_setup (may be async)."""

    def request_server_restart(self) -> None:
        logger.info(f"Addon {self.name} {self.version} requested a server restart")
        self.restart_requested = True

    def add_router(self, router: "APIRouter") -> None:
        """Kept for the record: only add_endpoint routes are served, so the host reports routers unsupported."""
        self.routers.append(router)

    def add_endpoint(
        self,
        path: str,
        handler: Callable[..., Any],
        *,
        method: str = "GET",
        name: str | None = None,
        description: str | None = None,
    ) -> None:
        """Serve `handler` at /api/addons/<name>/<version>/<path>."""
        self.endpoints.append(
            {
                "name": name or handler.__name__,
                "path": path,
                "handler": handler,
                "method": method.upper(),
                "description": description or handler.__doc__ or "",
            }
        )

    async def get_frontend_scopes(self) -> dict[str, Any]:
        return self.frontend_scopes

    async def get_frontend_modules(self) -> dict[str, Any]:
        return self.frontend_modules

    async def get_app_host_names(self) -> list[str]:
        return [self.app_host_name] if self.app_host_name else []

    async def get_sso_options(self, base_url: str) -> list[Any] | None:
        return None

    # --- files --------------------------------------------------------------------------------------------------

    def _existing_dir(self, *parts: str) -> str | None:
        path = os.path.join(self.addon_dir, *parts)
        return path if os.path.isdir(path) else None

    def get_frontend_dir(self) -> str | None:
        return self._existing_dir("frontend", "dist")

    def get_private_dir(self) -> str | None:
        return self._existing_dir("private")

    def get_public_dir(self) -> str | None:
        return self._existing_dir("public")

    def get_local_client_info(self, base_url: str | None = None) -> dict[str, Any] | None:
        private = self.get_private_dir()
        if private is None or not os.path.exists(os.path.join(private, "client.zip")):
            return None
        return {"type": "server", "filename": "client.zip"}

    async def get_client_source_info(self, base_url: str | None = None) -> list[dict[str, Any]] | None:
        local = self.get_local_client_info(base_url)
        return None if local is None else [local]

    async def get_client_pyproject(self) -> dict[str, Any] | None:
        private = self.get_private_dir()
        path = os.path.join(private, "pyproject.toml") if private else None
        if path is None or not os.path.exists(path):
            return None
        try:
            with open(path, "rb") as stream:
                return tomllib.load(stream)
        except (OSError, tomllib.TOMLDecodeError):
            raise AyonException("Unable to parse pyproject.toml") from None

    # --- settings -----------------------------------------------------------------------------------------------

    def get_settings_model(self) -> type[BaseSettingsModel] | None:
        return self.settings_model

    def get_site_settings_model(self) -> type[BaseSettingsModel] | None:
        return self.site_settings_model

    async def get_default_settings(self) -> BaseSettingsModel | None:
        """The model's own defaults; addons whose model has required fields override this with their values."""
        model = self.get_settings_model()
        return None if model is None else model()

    async def _effective_settings(
        self,
        variant: str | None,
        project_name: str | None = None,
        site_id: str | None = None,
        as_version: str | None = None,
    ) -> BaseSettingsModel | None:
        if as_version and as_version != self.version:
            raise NotImplementedException(
                f"Reading {self.name} {self.version} settings as version {as_version} is not available to addon code"
            )
        model = self.get_settings_model()
        if model is None:
            return None
        if not _bridge.connected():
            return await self.get_default_settings()
        data = await _bridge.server_call(
            "settings",
            {
                "addonName": self.name,
                "addonVersion": self.version,
                "variant": variant or "production",
                "projectName": project_name,
                "siteId": site_id,
            },
        )
        if data is None:
            return await self.get_default_settings()
        return model(**data)

    async def get_studio_settings(self, variant: str = "production", as_version: str | None = None,
                                  **_: Any) -> BaseSettingsModel | None:  # fmt: skip
        """Defaults with the studio overrides of `variant`."""
        return await self._effective_settings(variant, as_version=as_version)

    async def get_project_settings(self, project_name: str, variant: str = "production",
                                   as_version: str | None = None, **_: Any) -> BaseSettingsModel | None:  # fmt: skip
        """Studio settings with the project's overrides."""
        return await self._effective_settings(variant, project_name, as_version=as_version)

    async def get_project_site_settings(
        self,
        project_name: str,
        user_name: str,
        site_id: str,
        variant: str = "production",
        as_version: str | None = None,
        **_: Any,
    ) -> BaseSettingsModel | None:
        """Project settings with the site's overrides (of the user the request is made for)."""
        return await self._effective_settings(variant, project_name, site_id, as_version=as_version)

    async def get_site_settings(self, user_name: str, site_id: str, **_: Any) -> dict[str, Any] | None:
        raise NotImplementedException(f"Reading the site settings of {self.name} is not available to addon code")

    async def _stored_overrides(self, level: str) -> dict[str, Any]:
        raise NotImplementedException(
            f"Reading stored {level} overrides of {self.name} is not available to addon code on Pipewright"
        )

    async def get_studio_overrides(self, variant: str = "production", as_version: str | None = None,
                                   **_: Any) -> dict[str, Any]:  # fmt: skip
        return await self._stored_overrides("studio")

    async def get_project_overrides(self, project_name: str, variant: str = "production",
                                    as_version: str | None = None, **_: Any) -> dict[str, Any]:  # fmt: skip
        return await self._stored_overrides("project")

    async def get_project_site_overrides(self, project_name: str, user_name: str, site_id: str,
                                         as_version: str | None = None, **_: Any) -> dict[str, Any]:  # fmt: skip
        return await self._stored_overrides("project site")

    async def convert_settings_overrides(self, source_version: str, overrides: dict[str, Any]) -> dict[str, Any]:
        """Overrides stored by `source_version`, made fit for this version: by default AYON's best guess, which
        keeps what still matches the model. Addons override this with their own migrations."""
        model = self.get_settings_model()
        if model is None:
            return {}
        defaults = await self.get_default_settings()
        if defaults is None:
            return {}
        return migrate_settings_overrides(overrides, new_model_class=model, defaults=defaults.dict())

    async def on_settings_changed(self, *args: Any, **kwargs: Any) -> None:
        """Deprecated in AYON; the host never calls it."""

    # --- actions ------------------------------------------------------------------------------------------------

    async def get_simple_actions(self, project_name: str | None = None,
                                 variant: str = "production") -> list[SimpleActionManifest]:  # fmt: skip
        return []

    async def get_dynamic_actions(self, context: ActionContext,
                                  variant: str = "production") -> list[DynamicActionManifest]:  # fmt: skip
        return []

    async def execute_action(self, executor: ActionExecutor) -> ExecuteResponseModel:
        raise BadRequestException(f"Unknown action: {executor.identifier}")

    async def create_action_config_hash(self, identifier: str, context: ActionContext, user: "UserEntity",
                                        variant: str) -> str:  # fmt: skip
        """The key a user's config of an action is stored under: by default per user, action and project."""
        return hash_data([user.name, identifier, context.project_name])

    async def set_action_config(self, identifier: str, context: ActionContext, user: "UserEntity", variant: str,
                                config: dict[str, Any]) -> None:  # fmt: skip
        config_hash = await self.create_action_config_hash(identifier, context, user, variant)
        await set_action_config(
            config_hash,
            config,
            addon_name=self.name,
            addon_version=self.version,
            identifier=identifier,
            project_name=context.project_name,
            user_name=user.name,
        )

    async def get_action_config(self, identifier: str, context: ActionContext, user: "UserEntity",
                                variant: str) -> dict[str, Any]:  # fmt: skip
        return await get_action_config(await self.create_action_config_hash(identifier, context, user, variant))

