"""Loading an AYON addon package as AYON does: execute package.py, import server/ as a package under a name of
its own, instantiate its BaseServerAddon subclass (whose constructor runs initialize())."""

import importlib.util
import itertools
import os
import re
import sys
import traceback
from types import ModuleType
from typing import Any

import semver

from ayon_server.addons import AddonLibrary, BaseServerAddon
from ayon_server.addons.addon import METADATA_KEYS
from ayon_server.events.eventstream import EventStream, subscribing_addon
from ayon_server.exceptions import AyonException
from ayon_server.logging import logger

from .errors import one_line
from .unsupported import unsupported_uses

_load_numbers = itertools.count(1)


class LoadError(AyonException):
    """A package that cannot be loaded: the detail is one line naming the cause; the traceback goes with it."""

    status = 500

    def __init__(self, detail: str, trace: str = "") -> None:
        super().__init__(detail)
        self.traceback = trace


class LoadedAddon:
    """An addon version the host serves, with the modules it was imported as (dropped at unload)."""

    def __init__(self, addon: BaseServerAddon, module_name: str, package: ModuleType, unsupported: list[str]) -> None:
        self.addon = addon
        self.module_name = module_name
        self.package = package
        self.unsupported = unsupported


def _module_name(name: str, version: str) -> str:
    """Unique per load, so a reloaded version never finds the previous import in sys.modules."""
    slug = re.sub(r"[^0-9a-zA-Z]+", "_", f"{name}_{version}").strip("_")
    return f"pipewright_addon_{slug}_{next(_load_numbers)}"


def _exec_module(module_name: str, path: str, package_dir: str | None = None) -> ModuleType:
    """Import the file at `path` as `module_name` (a package when `package_dir` is given, so its relative
    imports resolve); registered in sys.modules before it runs, as import does."""
    locations = [package_dir] if package_dir else None
    spec = importlib.util.spec_from_file_location(module_name, path, submodule_search_locations=locations)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        forget_modules(module_name)
        raise
    return module


def forget_modules(module_name: str) -> None:
    for name in [name for name in sys.modules if name == module_name or name.startswith(module_name + ".")]:
        del sys.modules[name]


def read_package(directory: str, module_name: str) -> dict[str, Any]:
    """package.py's metadata (AYON's keys, plus client_dir which the server needs to serve the client)."""
    path = os.path.join(directory, "package.py")
    if not os.path.isfile(path):
        raise LoadError(f"{directory} has no package.py")
    package = _exec_module(f"{module_name}_package", path)
    try:
        metadata = {key: getattr(package, key) for key in [*METADATA_KEYS, "client_dir"] if hasattr(package, key)}
    finally:
        forget_modules(f"{module_name}_package")
    for key in ("name", "version"):
        if not isinstance(metadata.get(key), str) or not metadata[key]:
            raise LoadError(f"package.py in {directory} does not set {key}")
    try:
        semver.VersionInfo.parse(metadata["version"])
    except ValueError:
        raise LoadError(f"Addon {metadata['name']} has invalid version {metadata['version']}") from None
    return metadata


def addon_classes(module: ModuleType) -> list[type[BaseServerAddon]]:
    """The BaseServerAddon subclasses the server package exposes at its top level."""
    return [
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, BaseServerAddon) and value is not BaseServerAddon
    ]


def load_package(directory: str, expected: tuple[str, str] | None = None) -> LoadedAddon:
    """Load the package in `directory`, which must hold the `expected` (name, version) when given; a failure
    raises LoadError (one line, with the traceback)."""
    directory = os.path.abspath(directory)
    metadata: dict[str, Any] = {}
    module_name = _module_name(os.path.basename(directory), "package")
    try:
        metadata = read_package(directory, module_name)
        name, version = metadata["name"], metadata["version"]
        if expected is not None and (name, version) != expected:
            raise LoadError(f"{directory} holds {name} {version}, not {expected[0]} {expected[1]}")
        module_name = _module_name(name, version)
        server_dir = os.path.join(directory, "server")
        init_path = os.path.join(server_dir, "__init__.py")
        if not os.path.isfile(init_path):
            raise LoadError(f"Addon {name} {version} has no server/__init__.py")
        package = _exec_module(module_name, init_path, server_dir)
        try:
            addon = _instantiate(package, directory, metadata)
        except BaseException:
            forget_modules(module_name)
            raise
    except LoadError:
        raise
    except BaseException as error:  # noqa: BLE001 - addon code may raise anything, SystemExit included
        trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        label = f"{metadata.get('name', directory)} {metadata.get('version', '')}".strip()
        detail = error.detail if isinstance(error, AyonException) else one_line(error)
        failure = LoadError(f"Addon {label} failed to load: {detail}", trace)
        if "version" in metadata:
            AddonLibrary.getinstance()._mark_broken(metadata["name"], metadata["version"],
                                                   {"error": failure.detail, "traceback": trace})  # fmt: skip
        raise failure from error
    AddonLibrary.getinstance()._register(addon)
    logger.info(f"Loaded addon {addon.name} {addon.version} from {directory}")
    return LoadedAddon(addon, module_name, package, unsupported_uses(module_name, addon))


def _instantiate(package: ModuleType, directory: str, metadata: dict[str, Any]) -> BaseServerAddon:
    classes = addon_classes(package)
    if not classes:
        raise LoadError(f"Addon {metadata['name']} {metadata['version']}: server/__init__.py exposes no "
                        "BaseServerAddon subclass")  # fmt: skip
    addon_class = _most_derived(classes)
    library = AddonLibrary.getinstance()
    definition = library._definition_for(metadata["name"])
    arguments = {key: value for key, value in metadata.items() if key != "client_dir"}
    token = subscribing_addon.set(_PENDING)
    try:
        addon = addon_class(definition, addon_dir=directory, **arguments)
    except BaseException:
        EventStream.unsubscribe_owner(_PENDING)
        if not definition.versions:
            library.data.pop(metadata["name"], None)
        raise
    finally:
        subscribing_addon.reset(token)
    addon.client_dir = metadata.get("client_dir")
    # subscriptions made while constructing belong to the new addon
    for subscription in EventStream.subscriptions.values():
        if subscription.owner is _PENDING:
            subscription.owner = addon
    return addon


def _most_derived(classes: list[type[BaseServerAddon]]) -> type[BaseServerAddon]:
    """AYON instantiates every class found and keeps the last; a base class imported next to its subclass is
    not what the package means, so only classes nothing else derives from count."""
    leaves = [cls for cls in classes if not any(other is not cls and issubclass(other, cls) for other in classes)]
    return leaves[-1]


class _Pending:
    """Owner of subscriptions made during a constructor, before the addon exists."""


_PENDING = _Pending()


def unload(loaded: LoadedAddon) -> None:
    addon = loaded.addon
    AddonLibrary.unload_addon(addon.name, addon.version)
    EventStream.unsubscribe_owner(addon)
    forget_modules(loaded.module_name)
    logger.info(f"Unloaded addon {addon.name} {addon.version}")
