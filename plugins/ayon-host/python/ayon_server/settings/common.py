"""`BaseSettingsModel`, the base of every addon settings model, and AYON's default migration of stored overrides
from one addon version's model to another's."""

import inspect
import logging
from collections.abc import Callable
from types import GenericAlias
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel, ValidationError, parse_obj_as

logger = logging.getLogger("ayon_server.settings")


class BaseSettingsModel(BaseModel):
    # No docstring on purpose: pydantic puts the (inherited) docstring of a model in its schema's "description".
    #
    # Subclasses set the class attributes `_isGroup` (the editor treats the model as one value: overrides store it
    # whole), `_title`, `_layout` ("compact", "expanded", ...) and `_required`; post-processing puts them in the
    # JSON schema. The `_has_*_overrides` flags tell, on a settings instance, which layers changed it.
    _isGroup: bool = False
    _title: str | None = None
    _layout: str | None = None
    _required: bool = False
    _has_studio_overrides: bool | None = None
    _has_project_overrides: bool | None = None
    _has_site_overrides: bool | None = None

    class Config:
        underscore_attrs_are_private = True
        allow_population_by_field_name = True


def _is_settings_model(candidate: Any) -> bool:
    return inspect.isclass(candidate) and issubclass(candidate, BaseSettingsModel)


def migrate_settings_overrides(
    old_data: dict[str, Any],
    new_model_class: type[BaseSettingsModel],
    defaults: dict[str, Any],
    custom_conversions: dict[str, Callable[[Any], Any]] | None = None,
    parent_key: str = "",
) -> dict[str, Any]:
    """Carry overrides stored for another version of an addon over to `new_model_class`, as AYON does by default.

    Keys the new model does not have are dropped. Sub-models (and lists of sub-models, typed `list[Model]`) are
    migrated recursively; any other value is kept when `parse_obj_as(field type, value)` accepts it (the parsed
    value is kept) and dropped otherwise. `defaults` is the new version's default settings as a dict; like
    `custom_conversions` (accepted for AYON's signature) it does not change the result. `parent_key` is the dotted
    path of `old_data`, for the log. Returns a new dict; `old_data` is not changed."""
    custom_conversions = custom_conversions or {}
    if get_origin(new_model_class) is Annotated:
        new_model_class = get_args(new_model_class)[0]

    migrated: dict[str, Any] = {}
    for key, value in old_data.items():
        field = new_model_class.__fields__.get(key)
        if field is None:
            logger.warning("Skipping unknown key: %s", key)
            continue
        key_path = f"{parent_key}.{key}" if parent_key else key

        if not _is_settings_model(field.type_):
            try:
                migrated[key] = parse_obj_as(field.outer_type_, value)
            except ValidationError:
                logger.warning("Failed to validate %s with value %s", key, value)
            continue

        outer = field.outer_type_
        # Only the builtin `list[Model]` spelling counts as a list of sub-models here, as in AYON.
        if isinstance(outer, GenericAlias) and outer.__origin__ is list and isinstance(value, list):
            item_class = outer.__args__[0]
            migrated[key] = [
                migrate_settings_overrides(item, item_class, {}, custom_conversions, key_path) for item in value
            ]
        elif isinstance(value, dict):
            migrated[key] = migrate_settings_overrides(
                value, outer, defaults.get(key, {}), custom_conversions, key_path
            )
        else:
            logger.warning("Unsupported type for %s model: %s", key_path, str(value)[:70])
    return migrated
