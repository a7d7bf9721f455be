"""Turning pydantic's JSON schema of a settings model into the schema AYON's settings editor reads.

Pydantic 1 copies each field's `extra` (SettingsField's AYON options, resolver callables included) into the
property verbatim. Post-processing, per request because resolvers read studio data, resolves the enums, removes
what is not JSON, adds scope and the camelCase spellings, and marks groups, titles, layouts and colour widgets."""

import collections
import functools
import inspect
import logging
from collections.abc import Callable
from typing import Any

from ayon_server.exceptions import AyonException
from ayon_server.settings.common import BaseSettingsModel
from ayon_server.types import AttributeEnumItem, SimpleValue, camelize

logger = logging.getLogger("ayon_server.settings")

EnumValues = list[SimpleValue]
EnumLabels = dict[SimpleValue, str]

DEFAULT_SCOPE = ["project", "studio"]

# Extras the editor reads in camelCase; added under that name unless the property already has it.
_CAMELIZED_EXTRAS = ("section", "widget", "layout", "tags", "placeholder", "required_items", "conditional_enum")

# Colour types (by class name, see ayon_server.types): format and alpha of the colour picker.
_COLOR_WIDGETS = {
    "ColorRGB_hex": ("hex", False),
    "ColorRGBA_hex": ("hex", True),
    "ColorRGB_float": ("float", False),
    "ColorRGBA_float": ("float", True),
    "ColorRGB_uint8": ("uint8", False),
    "ColorRGBA_uint8": ("uint8", True),
}


def _collect_enum_items(items: Any) -> tuple[EnumValues, EnumLabels]:
    """Values and labels of a resolver's answer: strings, or {"value", "label"} dicts (attribute enum items too).
    Anything but a list gives an empty enum; other items are skipped, a dict without value or label with a
    warning."""
    values: EnumValues = []
    labels: EnumLabels = {}
    if not isinstance(items, list):
        return values, labels
    for item in items:
        if isinstance(item, AttributeEnumItem):
            item = {"value": item.value, "label": item.label}
        if isinstance(item, str):
            values.append(item)
        elif isinstance(item, dict):
            if "value" not in item or "label" not in item:
                logger.warning("Invalid enumerator item: %s", item)
                continue
            values.append(item["value"])
            labels[item["value"]] = item["label"]
    return values, labels


async def process_enum(
    enum_resolver: Callable[..., Any], context: dict[str, Any] | None = None
) -> tuple[EnumValues, EnumLabels]:
    """Call a resolver and collect its values and labels.

    Each parameter the resolver declares (positional-or-keyword) is passed by name: from `context` when there, else
    from the keywords of a `functools.partial` wrapping it, else None (its own default is not used, as in AYON).
    Coroutine results are awaited."""
    context = context or {}
    bound_keywords: dict[str, Any] = {}
    if isinstance(enum_resolver, functools.partial):
        bound_keywords = dict(enum_resolver.keywords)
        enum_resolver = enum_resolver.func

    # inspect.signature, unlike getfullargspec, leaves out the `self` of bound methods
    parameters = [
        parameter.name
        for parameter in inspect.signature(enum_resolver).parameters.values()
        if parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    ]
    arguments = {name: context[name] if name in context else bound_keywords.get(name) for name in parameters}
    answer = enum_resolver(**arguments)
    if inspect.isawaitable(answer):
        answer = await answer
    return _collect_enum_items(answer)


def _static_enum(extra: dict[str, Any]) -> tuple[EnumValues, EnumLabels] | None:
    """A field declared with a fixed `enum` (pydantic's Field(enum=[...]), as attribute models do)."""
    if not (items := extra.get("enum")):
        return None
    return _collect_enum_items(list(items))


async def _apply_enum(prop: dict[str, Any], extra: dict[str, Any], context: dict[str, Any]) -> None:
    enum = _static_enum(extra)
    if enum is None:
        if (resolver := extra.get("enum_resolver")) is None:
            return
        try:
            enum = await process_enum(resolver, context)
        except AyonException as error:
            # The field stays in the form, disabled, telling why its choices are missing.
            prop["placeholder"] = error.detail
            prop["disabled"] = True
            enum = ([], {})
    values, labels = enum
    if "items" in prop:  # an array: a multi-select of unique values
        prop["items"] = {"type": "string", "enum": values}
        prop.pop("enum", None)
        prop["uniqueItems"] = True
    else:
        prop["enum"] = values
    if labels:  # shared by both forms, so kept beside them rather than inside items
        prop["enumLabels"] = labels


def _apply_color_widget(prop: dict[str, Any], field_type: Any) -> None:
    if not inspect.isclass(field_type) or field_type.__name__ not in _COLOR_WIDGETS:
        return
    color_format, has_alpha = _COLOR_WIDGETS[field_type.__name__]
    prop.update(type="string", widget="color", colorFormat=color_format, colorAlpha=has_alpha)


async def _postprocess_property(prop: dict[str, Any], field: Any, context: dict[str, Any]) -> None:
    extra = field.field_info.extra
    await _apply_enum(prop, extra, context)
    scope = extra.get("scope")
    prop["scope"] = scope if isinstance(scope, list) else list(DEFAULT_SCOPE)
    for name in _CAMELIZED_EXTRAS:
        value = extra.get(name)
        if value and camelize(name) not in prop:
            prop[camelize(name)] = value
    _apply_color_widget(prop, field.type_)


def _reachable_settings_models(model: type[BaseSettingsModel]) -> dict[str, type[BaseSettingsModel]]:
    """Every settings model reachable from `model` through field types and their first-level sub-fields
    (list items, union members), by class name, the first one found winning (definitions are keyed by name)."""
    found: dict[str, type[BaseSettingsModel]] = {}
    queue: collections.deque[Any] = collections.deque([model])
    while queue:
        candidate = queue.popleft()
        if not inspect.isclass(candidate) or candidate.__name__ in found:
            continue
        try:
            if not issubclass(candidate, BaseSettingsModel):
                continue
        except TypeError:  # typing constructs that pass isclass but refuse issubclass
            continue
        found[candidate.__name__] = candidate
        for field in candidate.__fields__.values():
            queue.append(field.type_)
            queue.extend(sub_field.type_ for sub_field in field.sub_fields or [])
    return found


async def postprocess_settings_schema(
    schema: dict[str, Any],
    model: type[BaseSettingsModel],
    is_top_level: bool = True,
    context: dict[str, Any] | None = None,
) -> None:
    """Post-process, in place, `schema` (a deep copy of `model.schema()`) as AYON's settings editor expects it.

    `context` feeds the enum resolvers: `addon` (the addon instance), `project_name`, `settings_variant`,
    `user_name`, `site_id` (None or absent when not applicable). Per model: `isgroup`, and `title`/`layout`/
    `dependencies` from `_title`/`_layout`/`_dependencies` (pydantic's title removed). Per property: enum resolved
    (`enum`, or `items.enum` plus `uniqueItems` for arrays; `enumLabels`; a resolver raising an AyonException
    leaves `placeholder` = its detail and `disabled` = true), `scope` (default ["project", "studio"]), camelCase
    extras, colour widgets. At the top level, the `definitions` of every reachable settings model are processed
    the same way. Exceptions of resolvers other than AyonException propagate."""
    context = context or {}
    private = model.__private_attributes__
    schema["isgroup"] = private["_isGroup"].default
    schema.pop("title", None)
    for name in ("title", "layout", "dependencies"):
        attribute = private.get(f"_{name}")
        if attribute is not None and attribute.default is not None:
            schema[name] = attribute.default

    for name, prop in schema.get("properties", {}).items():
        # Not JSON (a callable) or re-added camelCased below
        prop.pop("enum_resolver", None)
        prop.pop("required_items", None)
        if (field := model.__fields__.get(name)) is not None:
            await _postprocess_property(prop, field, context)

    if not is_top_level:
        return
    submodels = _reachable_settings_models(model)
    for definition_name, definition in schema.get("definitions", {}).items():
        if definition_name in submodels:
            await postprocess_settings_schema(
                definition, submodels[definition_name], is_top_level=False, context=context
            )
