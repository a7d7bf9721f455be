"""Helpers addons call from their pydantic validators.

They raise BadRequestException, not ValueError: pydantic 1 wraps only ValueError, TypeError and AssertionError into
a ValidationError, so these escape `Model(**data)` as they are and the server answers 400 with their sentence."""

import re
from collections.abc import Iterable
from typing import Any

from ayon_server.exceptions import BadRequestException

try:
    from unidecode import unidecode as _to_ascii
except ImportError:  # the transliteration is a nicety; without it, accents are stripped and the rest dropped
    import unicodedata

    def _to_ascii(text: str) -> str:
        return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def normalize_name(
    name: str,
    allowed_chars: str | None = None,
    replacement: str | None = None,
    escape_unicode: bool = True,
    strip: bool = True,
) -> str:
    """Clean a user-typed name.

    `allowed_chars` is the body of a regex character class (default "a-zA-Z0-9-_ "; "*" or "." allows anything);
    other characters become `replacement` (default: removed). Unicode is transliterated to ASCII first unless
    `escape_unicode` is False, and the name is stripped unless `strip` is False.
    Raises BadRequestException("Name must not be empty") when nothing is left."""
    allowed_chars = "a-zA-Z0-9-_ " if allowed_chars is None else allowed_chars
    replacement = "" if replacement is None else replacement
    if strip:
        name = name.strip()
    if escape_unicode:
        name = _to_ascii(name)
    if allowed_chars not in ("*", "."):
        name = re.sub(f"[^{allowed_chars}]", replacement, name)
    if not name:
        raise BadRequestException("Name must not be empty")
    return name


def ensure_unique_names(objects: Iterable[Any], field_name: str | None = None) -> None:
    """Refuse a list whose items share a `name` (settings lists are keyed by it) or lack one.

    Raises BadRequestException("Duplicate name 'x'") or ("Object without name provided"), with " in '<field_name>'"
    appended when a field name is given."""
    where = f" in '{field_name}'" if field_name else ""
    seen: list[Any] = []  # a list, not a set: names need not be hashable
    for item in objects:
        if not hasattr(item, "name"):
            raise BadRequestException(f"Object without name provided{where}")
        if item.name in seen:
            raise BadRequestException(f"Duplicate name '{item.name}'{where}")
        seen.append(item.name)
