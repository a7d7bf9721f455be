"""Settings layers: defaults, then studio, project and site overrides.

An override layer is a dict shaped like the settings, holding only what that layer changed. Lists and groups
(`_isGroup` models) are stored whole: an override never patches part of a list."""

import copy
import logging
from typing import Any

from ayon_server.exceptions import BadRequestException
from ayon_server.settings.common import BaseSettingsModel

logger = logging.getLogger("ayon_server.settings")

Path = list[str]


_FLAG_NAMES = ("_has_studio_overrides", "_has_project_overrides", "_has_site_overrides")


def _flags(settings: BaseSettingsModel) -> dict[str, bool | None]:
    return {name: getattr(settings, name) for name in _FLAG_NAMES}


# --- reading: apply a layer -------------------------------------------------------------------------------------


def apply_overrides(settings: BaseSettingsModel, overrides: dict[str, Any]) -> BaseSettingsModel:
    """`settings` with one layer of `overrides` applied, as a new instance of the same model.

    Sub-models are walked; any other value present in `overrides`, whole lists included, replaces the current one.
    A value the current value's type cannot even be built from (`int("abc")` raising ValueError) is dropped with a
    warning. The model is rebuilt with `settings.__class__(**values)`, so its validators run: they may raise
    BadRequestException, or pydantic's ValidationError for a value of the wrong shape. The `_has_*_overrides` flags
    of `settings` are carried to the result."""

    def merge(current: BaseSettingsModel, layer: dict[str, Any]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for name in current.__fields__:
            child = getattr(current, name)
            if isinstance(child, BaseSettingsModel):
                values[name] = merge(child, layer.get(name, {}))
            elif name not in layer:
                values[name] = child
            elif _coercible(child, layer[name]):
                values[name] = layer[name]
            else:
                logger.warning("Invalid value for %s: %s", name, layer[name])
        return values

    result = settings.__class__(**merge(settings, overrides))
    for name, value in _flags(settings).items():
        setattr(result, name, value)
    return result


def _coercible(current: Any, value: Any) -> bool:
    """AYON's cheap pre-check: can the current value's type be called on the new value? Only a ValueError counts
    as "no"; a TypeError (lists, tuples, None) leaves the judgement to the model's validation."""
    try:
        type(current)(value)
    except ValueError:
        return False
    except TypeError:
        pass
    return True


# --- writing: extract a layer -----------------------------------------------------------------------------------


def extract_overrides(
    default: BaseSettingsModel,
    overriden: BaseSettingsModel,
    existing: dict[str, Any] | None = None,
    explicit_pins: list[Path] | None = None,
    explicit_unpins: list[Path] | None = None,
) -> dict[str, Any]:
    """The override layer that turns `default` (the settings this level inherits) into `overriden`.

    `existing` is this level's stored overrides: what was overridden stays overridden, even when now equal to the
    inherited value. Non-group sub-models are walked; a group or any other value is stored whole when it differs,
    was already overridden, or its path is in `explicit_pins` (a pinned non-group sub-model is stored whole too).
    Paths in `explicit_unpins` are then removed, with the parents they leave empty. Returns a new dict."""
    existing = existing or {}
    pins = explicit_pins or []
    result: dict[str, Any] = {}

    def walk(old: BaseSettingsModel, new: BaseSettingsModel, stored: dict[str, Any], target: dict, path: Path):
        new_values: dict[str, Any] | None = None  # new.dict(), built once when a first value is stored
        for name in old.__fields__:
            old_child, new_child = getattr(old, name), getattr(new, name)
            child_path = [*path, name]
            if isinstance(old_child, BaseSettingsModel) and not old_child._isGroup:
                if child_path in pins:
                    target[name] = new_child.dict()
                elif name in stored or old_child.dict() != new_child.dict():
                    target[name] = {}
                    walk(old_child, new_child, stored.get(name, {}), target[name], child_path)
            elif old_child != new_child or name in stored or child_path in pins:
                new_values = new.dict() if new_values is None else new_values
                target[name] = new_values[name]

    walk(default, overriden, existing, result, [])
    for path in explicit_unpins or []:
        dict_remove_path(result, path, remove_orphans=True)
    return result


def dict_remove_path(data: dict[str, Any], path: Path, remove_orphans: bool = True) -> None:
    """Delete the key at `path` in nested dicts, in place; a path that is not there is ignored. With
    `remove_orphans`, parents left empty by the deletion are deleted too."""
    parents = [data]
    for key in path[:-1]:
        node = parents[-1].get(key)
        if not isinstance(node, dict):
            return
        parents.append(node)
    if not path or path[-1] not in parents[-1]:
        return
    del parents[-1][path[-1]]
    if not remove_orphans:
        return
    # parents[i] is the dict at path[:i]; walk back up while the dict just emptied is left empty
    for depth in range(len(path) - 1, 0, -1):
        if parents[depth]:
            break
        del parents[depth - 1][path[depth - 1]]


# --- the editor's per-field actions -----------------------------------------------------------------------------


def remove_override(overrides: dict[str, Any], path: Path) -> dict[str, Any]:
    """The layer without the override at `path` ("remove override" in the editor), parents left empty removed.
    Returns a new dict."""
    result = copy.deepcopy(overrides)
    dict_remove_path(result, path)
    return result


def pin_override(settings: BaseSettingsModel, overrides: dict[str, Any], path: Path) -> dict[str, Any]:
    """The layer with the current value at `path` pinned ("pin override"): stored at this level even if equal.

    `settings` is this level's effective settings. The path is walked through non-group sub-models; the first
    group, list or leaf met is stored whole (a path into a list pins the whole list) and the walk stops. A path
    ending on a non-group sub-model leaves an empty dict there, as AYON does. Raises BadRequestException when a key
    is not a field. Returns a new dict."""
    result = copy.deepcopy(overrides)
    node: Any = settings
    layer = result
    for key in path:
        if key not in node.__fields__:
            raise BadRequestException(f"{key} is not present in {type(node).__name__}")
        node = getattr(node, key)
        if isinstance(node, BaseSettingsModel) and not node._isGroup:
            layer = layer.setdefault(key, {})
            continue
        layer[key] = _plain(node)
        break
    return result


def _plain(value: Any) -> Any:
    if isinstance(value, BaseSettingsModel):
        return value.dict()
    if isinstance(value, list):
        return [item.dict() if isinstance(item, BaseSettingsModel) else item for item in value]
    return value


# --- the editor's override map ----------------------------------------------------------------------------------


def list_overrides(
    obj: BaseSettingsModel,
    override: dict[str, Any],
    crumbs: Path | None = None,
    level: str = "studio",
    in_group: Path | None = None,
    scope: list[str] | None = None,
) -> dict[str, Any]:
    """The `.../overrides` map of one layer, as AYON 1.11.3 builds it.

    `obj` is the settings at that layer (overrides applied), `override` the layer itself. Keys are rjsf ids
    ("root_publish_plugins"); each entry is `{path, type, level, inGroup, scope}` for an overridden sub-model
    (type "branch", or "group" for `_isGroup`) or list (type "list"), and `{path, value, level, inGroup, scope}`
    for a leaf (no type). Items of an overridden list are listed too: model items field by field, plain items
    with level "default". `scope` is the field's own scope, else the parent's, else ["studio", "project"] at the
    top. Merge the maps of successive layers, later over earlier, for the editor's view."""
    result: dict[str, Any] = {}
    id_prefix = "root" if crumbs is None else "root_" + "_".join(crumbs)
    crumbs = crumbs or []

    for name, field in obj.__fields__.items():
        child = getattr(obj, name)
        field_id = f"{id_prefix}_{name}"
        child_crumbs = [*crumbs, name]
        extra = getattr(field.field_info, "extra", None) or {}
        child_scope = extra.get("scope", copy.copy(scope))
        if child_scope is None and id_prefix == "root":
            child_scope = ["studio", "project"]

        def entry(**fields: Any) -> dict[str, Any]:
            return {"path": child_crumbs, **fields, "inGroup": in_group, "scope": child_scope}

        if isinstance(child, BaseSettingsModel):
            if name in override:
                result[field_id] = entry(type="group" if child._isGroup else "branch", level=level)
            result.update(
                list_overrides(
                    child,
                    override.get(name, {}),
                    child_crumbs,
                    level,
                    in_group=child_crumbs if child._isGroup else in_group,
                    scope=child_scope,
                )
            )
        elif isinstance(child, list):
            if name not in override:
                continue
            result[field_id] = entry(type="list", level=level)
            item_group = in_group or child_crumbs
            for index, item in enumerate(child):
                if isinstance(item, BaseSettingsModel):
                    result.update(
                        list_overrides(
                            item,
                            override[name][index],
                            [*child_crumbs, str(index)],
                            level=level,
                            in_group=item_group,
                            scope=child_scope,
                        )
                    )
                else:
                    result[f"{field_id}_{index}"] = {
                        "path": [*child_crumbs, str(index)],
                        "level": "default",
                        "value": item,
                        "inGroup": item_group,
                        "scope": child_scope,
                    }
        elif name in override:  # a leaf, tuples (colours) included
            result[field_id] = entry(value=override[name], level=level)
    return result
