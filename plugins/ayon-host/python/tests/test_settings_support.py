"""Loading the settings packages of the real AYON addons for the settings tests (no tests here).

Only each addon's settings code is imported, under a unique module name. The few names it imports from outside
the settings machinery (`ayon_server.addons.BaseServerAddon` in applications) are stubbed while it is imported, so
these tests do not depend on the rest of the compatibility package."""

import asyncio
import copy
import importlib
import importlib.util
import subprocess
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PYTHON_DIR = Path(__file__).resolve().parents[1]
REPO = PYTHON_DIR.parents[2]
if str(PYTHON_DIR) not in sys.path:
    sys.path.insert(0, str(PYTHON_DIR))

from ayon_server.settings import BaseSettingsModel, postprocess_settings_schema  # noqa: E402

UNPACKED = REPO / ".cache" / "ayon-addons" / "unpacked"


@dataclass(frozen=True)
class AddonSettings:
    """Where an addon keeps its settings model and defaults."""

    name: str
    version: str
    module: str  # inside server/, relative to the settings package ("" for the package itself)
    model: str
    defaults: str
    site_model: str | None = None


ADDONS = {
    "core": AddonSettings("core", "1.9.7", "", "CoreSettings", "DEFAULT_VALUES"),
    "applications": AddonSettings("applications", "1.4.4", "", "ApplicationsAddonSettings", "DEFAULT_VALUES"),
    "maya": AddonSettings("maya", "0.6.5", "main", "MayaSettings", "DEFAULT_MAYA_SETTING"),
    "houdini": AddonSettings("houdini", "0.10.6", "", "HoudiniSettings", "DEFAULT_VALUES"),
    "deadline": AddonSettings(
        "deadline", "0.7.3", "", "DeadlineSettings", "DEFAULT_VALUES", site_model="DeadlineSiteSettings"
    ),
    "blender": AddonSettings("blender", "1.1.8", "", "BlenderSettings", "DEFAULT_VALUES"),
}


class StubServerAddon:
    """Stands in for BaseServerAddon: what settings resolvers call on `addon` (the studio/project settings)."""

    def __init__(self, settings: BaseSettingsModel | None = None):
        self.settings = settings
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def get_studio_settings(self, variant: str = "production", **kwargs: Any) -> BaseSettingsModel | None:
        self.calls.append(("studio", {"variant": variant, **kwargs}))
        return self.settings

    async def get_project_settings(self, project_name: str, variant: str = "production", **kwargs: Any):
        self.calls.append(("project", {"project_name": project_name, "variant": variant, **kwargs}))
        return self.settings


def _stub_modules() -> dict[str, types.ModuleType]:
    addons = types.ModuleType("ayon_server.addons")
    addons.BaseServerAddon = StubServerAddon
    addons.AddonLibrary = object
    return {"ayon_server.addons": addons}


def _ensure_built() -> None:
    if all((UNPACKED / spec.name / spec.version / "server").is_dir() for spec in ADDONS.values()):
        return
    subprocess.run([str(REPO / "scripts" / "build-ayon-addons.sh")], check=True, capture_output=True)


_loaded: dict[str, types.ModuleType] = {}


def settings_module(addon: str) -> types.ModuleType:
    """The addon's settings module (package `server/settings/`, or module `server/settings.py`), imported once."""
    if addon in _loaded:
        return _loaded[addon]
    _ensure_built()
    spec = ADDONS[addon]
    server = UNPACKED / spec.name / spec.version / "server"
    package_name = f"pw_settings_test_{spec.name}_{spec.version.replace('.', '_')}"
    if (server / "settings").is_dir():
        location = server / "settings" / "__init__.py"
        search = [str(server / "settings")]
    else:
        location, search = server / "settings.py", None

    stubs = _stub_modules()
    saved = {name: sys.modules.get(name) for name in stubs}
    sys.modules.update(stubs)
    try:
        import_spec = importlib.util.spec_from_file_location(package_name, location, submodule_search_locations=search)
        module = importlib.util.module_from_spec(import_spec)
        sys.modules[package_name] = module
        import_spec.loader.exec_module(module)
        if spec.module:
            module = importlib.import_module(f"{package_name}.{spec.module}")
    finally:
        for name, previous in saved.items():
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous
    _loaded[addon] = module
    return module


def model_of(addon: str) -> type[BaseSettingsModel]:
    return getattr(settings_module(addon), ADDONS[addon].model)


def defaults_of(addon: str) -> BaseSettingsModel:
    """What the addon's `get_default_settings()` answers: its model built from its DEFAULT_VALUES."""
    spec = ADDONS[addon]
    module = settings_module(addon)
    return getattr(module, spec.model)(**copy.deepcopy(getattr(module, spec.defaults)))


def site_model_of(addon: str) -> type[BaseSettingsModel]:
    spec = ADDONS[addon]
    module = settings_module(addon)
    return getattr(module, spec.site_model)


def schema_of(model: type[BaseSettingsModel], **context: Any) -> dict[str, Any]:
    """The schema as the host serves it: `model.schema()` deep-copied, then post-processed with `context`."""
    schema = copy.deepcopy(model.schema())
    asyncio.run(postprocess_settings_schema(schema, model, context=context))
    return schema


def walk_properties(schema: dict[str, Any]):
    """(model name, property name, property) of the top-level model and of every definition."""
    for name, prop in schema.get("properties", {}).items():
        yield "<root>", name, prop
    for definition_name, definition in schema.get("definitions", {}).items():
        for name, prop in definition.get("properties", {}).items():
            yield definition_name, name, prop


def resolve_ref(schema: dict[str, Any], prop: dict[str, Any]) -> dict[str, Any]:
    """The definition a property points at (`$ref` or `allOf: [{$ref}]`)."""
    ref = prop.get("$ref") or prop.get("allOf", [{}])[0].get("$ref") or prop.get("items", {}).get("$ref")
    return schema["definitions"][ref.rsplit("/", 1)[1]]


def definition_at(schema: dict[str, Any], *path: str) -> dict[str, Any]:
    """The (post-processed) schema of the sub-model at a path of property names from the root."""
    node = schema
    for name in path:
        node = resolve_ref(schema, node["properties"][name])
    return node


def property_at(schema: dict[str, Any], *path: str) -> dict[str, Any]:
    return definition_at(schema, *path[:-1])["properties"][path[-1]]
