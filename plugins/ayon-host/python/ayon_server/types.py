"""Shared constants and small types of AYON's `ayon_server.types`: entity literals, the name regexes, the colour
types settings use (post-processing turns them into colour pickers), `OPModel`/`Field` for API models."""

__all__ = ["OPModel", "Field", "camelize"]

import re
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel
from pydantic.fields import FieldInfo, Undefined

from ayon_server.exceptions import BadRequestException


def camelize(src: str) -> str:
    """snake_case to camelCase, the way AYON spells its API keys ("required_items" -> "requiredItems")."""
    head, *rest = src.split("_")
    return head + "".join(part.title() for part in rest)


# --- literals ---------------------------------------------------------------------------------------------------

Platform = Literal["windows", "linux", "darwin"]
SimpleValue = str | int | float | bool
AccessType = Literal["create", "read", "update", "delete", "publish"]
ProjectLevelEntityType = Literal["folder", "product", "version", "representation", "task", "workfile"]
TopLevelEntityType = Literal["project", "user"]
AttributeType = Literal[
    "string",
    "integer",
    "float",
    "boolean",
    "datetime",
    "list_of_strings",
    "list_of_integers",
    "list_of_any",
    "list_of_submodels",
    "dict",
]

# --- regexes (the values are AYON's: names stored by one server must be accepted by the other) -------------------

ENTITY_ID_REGEX = r"^[0-f]{32}$"
ENTITY_ID_EXAMPLE = "c10d5bc73dcab7da4cba0f3e0b3c0aea"
TOPIC_REGEX = r"^[a-zA-Z][a-zA-Z0-9_\.\*]{2,64}$"
LABEL_REGEX = r"^[^';]*$"  # no quote or semicolon
NAME_REGEX = r"^[a-zA-Z0-9_]([a-zA-Z0-9_\.\-]*[a-zA-Z0-9_])?$"
STATUS_REGEX = r"^[a-zA-Z0-9_][a-zA-Z0-9_ \-]{1,64}[a-zA-Z0-9_]$"
TYPE_NAME_REGEX = r"^[a-zA-Z0-9_][a-zA-Z0-9_ \-]{1,64}[a-zA-Z0-9_]$"
USER_NAME_REGEX = r"^[a-zA-Z0-9][a-zA-Z0-9_\.\-]*[a-zA-Z0-9]$"
PROJECT_NAME_REGEX = r"^[a-zA-Z0-9_]*$"
ATTRIBUTE_NAME_REGEX = "^[a-zA-Z0-9]{2,64}$"
PROJECT_CODE_REGEX = r"^[a-zA-Z0-9_][a-zA-Z0-9_]*[a-zA-Z0-9_]$"
API_KEY_REGEX = r"^[a-zA-Z0-9\-]*$"
SEMVER_REGEX = (
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
)
EMAIL_REGEX = r"^[a-zA-Z0-9_.+-]+@[a-zA-Z0-9-]+\.[a-zA-Z0-9-.]+$"


def validate_name(name: str, regex: str = NAME_REGEX) -> str:
    if re.match(regex, name) is None:
        raise BadRequestException(f"Name '{name}' does not match regex '{regex}'")
    return name


def validate_user_name(name: str) -> str:
    if re.match(USER_NAME_REGEX, name) is None:
        raise BadRequestException(f"User name '{name}' does not match regex '{USER_NAME_REGEX}'")
    return name


def validate_email(email: str) -> str:
    if re.match(EMAIL_REGEX, email) is None:
        raise BadRequestException(f"Invalid email: '{email}'")
    return email


def validate_email_list(emails: list[str]) -> list[str]:
    return [validate_email(email) for email in emails]


def validate_name_list(names: list[str], regex: str = NAME_REGEX) -> list[str]:
    return [validate_name(name, regex) for name in names]


def validate_status_list(statuses: list[str]) -> list[str]:
    return validate_name_list(statuses, STATUS_REGEX)


def validate_type_name_list(type_names: list[str]) -> list[str]:
    return validate_name_list(type_names, TYPE_NAME_REGEX)


def validate_user_name_list(names: list[str]) -> list[str]:
    return [validate_user_name(name) for name in names]


def validate_topic_list(topics: list[str]) -> list[str]:
    """Check each topic, and turn its `*` wildcards into SQL's `%`."""
    for topic in topics:
        if re.match(TOPIC_REGEX, topic) is None:
            raise BadRequestException(f"Topic '{topic}' does not match regex '{TOPIC_REGEX}'")
    return [topic.replace("*", "%") for topic in topics]


def sanitize_string_list(strings: list[str]) -> list[str]:
    """Double the single quotes, so the strings can sit in an SQL literal."""
    return [item.replace("'", "''") for item in strings]


# --- colour types -----------------------------------------------------------------------------------------------
# Settings post-processing recognises these by class name and renders a colour picker for them.


class ColorRGB_hex(str):
    """An RGB colour as hex, "#ff0000"."""


class ColorRGBA_hex(str):
    """An RGBA colour as hex, "#ff0000ff"."""


class ColorRGB_uint8(NamedTuple):
    """An RGB colour as 0-255 integers, (255, 0, 0)."""

    r: int
    g: int
    b: int


class ColorRGBA_uint8(NamedTuple):
    """RGB as 0-255 integers, alpha as a float 0.0-1.0: (255, 0, 0, 1.0)."""

    r: int
    g: int
    b: int
    a: float


class ColorRGB_float(NamedTuple):
    """An RGB colour as floats 0.0-1.0, (1.0, 0.0, 0.0)."""

    r: float
    g: float
    b: float


class ColorRGBA_float(NamedTuple):
    """An RGBA colour as floats 0.0-1.0, (1.0, 0.0, 0.0, 1.0)."""

    r: float
    g: float
    b: float
    a: float


# --- API models -------------------------------------------------------------------------------------------------


class OPModel(BaseModel):
    """Base API model."""

    # The docstring is AYON's: pydantic shows it as the "description" of every REST model that has none of its own.
    # camelCase on the wire, snake_case (or the alias) accepted on input.

    class Config:
        orm_mode = True
        allow_population_by_field_name = True
        alias_generator = camelize


def Field(  # noqa: N802 - the name addons import
    default: Any = Undefined,
    *,
    example: Any = None,
    examples: list[Any] | None = None,
    deprecated: bool = False,
    **kwargs: Any,
) -> Any:
    """AYON's REST field: pydantic's FieldInfo with one `example` (the first of `examples`, else `example`) in `extra`.

    Arguments pydantic's FieldInfo does not know are dropped, as AYON drops them."""
    known = {
        "default_factory", "alias", "title", "description", "gt", "ge", "lt", "le", "multiple_of",
        "allow_inf_nan", "max_digits", "decimal_places", "min_items", "max_items", "unique_items",
        "min_length", "max_length", "allow_mutation", "regex", "discriminator", "repr",
    }  # fmt: skip
    options = {key: value for key, value in kwargs.items() if key in known}
    options["deprecated"] = deprecated  # AYON's REST schemas carry "deprecated" on every field
    first_example = examples[0] if examples else example  # AYON lists `example` after `examples`
    if first_example is not None:
        options["example"] = first_example
    info = FieldInfo(default, **options)
    info._validate()
    return info


class AttributeEnumItem(OPModel):
    """Attribute enum item."""

    value: Annotated[SimpleValue, Field(title="Enum value")]
    label: Annotated[str, Field(title="Enum label")]
    icon: Annotated[str | None, Field(title="Icon name")] = None
    color: Annotated[ColorRGB_hex | None, Field(title="Color in RGBA hex format", regex="^#[0-9a-fA-F]{6}$")] = None
    projects: Annotated[
        list[str] | None, Field(title="Projects", description="List of project this item is available on")
    ] = None


def normalize_to_dict(source: dict[Any, Any] | BaseModel) -> dict[Any, Any]:
    """A dict as is, a pydantic model as its dict(); anything else is a ValueError."""
    if isinstance(source, dict):
        return source
    if isinstance(source, BaseModel):
        return source.dict()
    raise ValueError(f"Can't normalize {source}")
