"""`SettingsField`: pydantic's `Field` plus the AYON extras the settings editor reads.

The extras go to `FieldInfo.extra`, which pydantic 1 copies verbatim into the field's JSON schema; post-processing
(`postprocess.py`) then resolves enums, removes what is not JSON, and adds the camelCase spellings."""

import logging
import traceback
from typing import Any

from pydantic.fields import FieldInfo, Undefined
from pydantic.typing import AnyCallable, NoArgAnyCallable

logger = logging.getLogger("ayon_server.settings")


def _caller() -> str:
    """Where the addon called SettingsField (two frames up), for debug messages."""
    frame = traceback.extract_stack()[-3]
    return f"{frame.filename}:{frame.lineno}"


def SettingsField(  # noqa: N802 - the name addons import
    default: Any = Undefined,
    *,
    default_factory: NoArgAnyCallable | None = None,
    alias: str | None = None,
    title: str | None = None,
    description: str | None = None,
    gt: float | None = None,
    ge: float | None = None,
    lt: float | None = None,
    le: float | None = None,
    multiple_of: float | None = None,
    allow_inf_nan: bool | None = None,
    max_digits: int | None = None,
    decimal_places: int | None = None,
    min_items: int | None = None,
    max_items: int | None = None,
    unique_items: bool | None = None,
    min_length: int | None = None,
    max_length: int | None = None,
    allow_mutation: bool = True,
    regex: str | None = None,
    discriminator: str | None = None,
    repr: bool = True,  # noqa: A002 - pydantic's name
    example: Any = None,
    enum_resolver: AnyCallable | None = None,
    required_items: list[str] | None = None,
    section: str | None = None,
    widget: str | None = None,
    syntax: str | None = None,
    layout: str | None = None,
    tags: list[str] | None = None,
    scope: list[str] | None = None,
    placeholder: str | None = None,
    conditional_enum: bool = False,
    disabled: bool = False,
    conditionalEnum: bool = False,  # noqa: N803 - the older spelling, still used by most addons
    examples: list[Any] | None = None,
    **unsupported: Any,
) -> Any:
    """A settings field.

    AYON extras, all optional: `enum_resolver` (a callable, sync or async, whose parameters are filled by name from
    the schema context), `required_items`, `section`, `widget`, `syntax` (for `widget="textarea"`), `layout`, `tags`,
    `scope` (default, applied at post-processing: ["project", "studio"]), `placeholder`, `conditional_enum`
    (`conditionalEnum` accepted), `disabled` (always recorded, so schemas carry `"disabled": false`), `example`
    (the first of `examples` wins over it). Other unknown arguments are dropped, as AYON drops them."""
    if conditionalEnum:
        logger.debug("Deprecated argument: conditionalEnum at %s", _caller())
    if unsupported:
        logger.debug("Unsupported argument: %s at %s", ", ".join(unsupported), _caller())

    # The insertion order is the key order of the property in the JSON schema, kept as AYON writes it.
    extra: dict[str, Any] = {}
    first_example = examples[0] if examples else example  # AYON lists `example` after `examples`
    if first_example is not None:
        extra["example"] = first_example
    optional_extras = {
        "enum_resolver": enum_resolver,
        "required_items": required_items,
        "section": section,
        "widget": widget,
        "layout": layout,
        "tags": tags,
        "placeholder": placeholder,
    }
    extra.update((key, value) for key, value in optional_extras.items() if value is not None)
    if conditional_enum or conditionalEnum:
        extra["conditional_enum"] = True
    if scope is not None:
        extra["scope"] = scope
    if disabled is not None:
        extra["disabled"] = disabled
    if syntax is not None:
        if widget != "textarea":
            logger.debug("SettingsField: syntax is only supported for textarea widget")
        extra["syntax"] = syntax.lower()

    info = FieldInfo(
        default,
        default_factory=default_factory,
        alias=alias,
        title=title,
        description=description,
        gt=gt,
        ge=ge,
        lt=lt,
        le=le,
        multiple_of=multiple_of,
        allow_inf_nan=allow_inf_nan,
        max_digits=max_digits,
        decimal_places=decimal_places,
        min_items=min_items,
        max_items=max_items,
        unique_items=unique_items,
        min_length=min_length,
        max_length=max_length,
        allow_mutation=allow_mutation,
        regex=regex,
        discriminator=discriminator,
        repr=repr,
        **extra,
    )
    info._validate()  # refuses default and default_factory together, as pydantic's Field does
    return info
