"""AYON's entity ids: 32 lowercase hex digits."""

import re
import uuid
from typing import Any

from pydantic import Field


class EntityID:
    example = "af10c8f0e9b111e9b8f90242ac130003"
    META: dict[str, Any] = {"example": example, "min_length": 32, "max_length": 32, "regex": r"^[0-9a-f]{32}$"}

    @classmethod
    def create(cls) -> str:
        return uuid.uuid1().hex

    @classmethod
    def field(cls, name: str = "entity") -> Any:
        return Field(default_factory=cls.create, title=f"{name.capitalize()} ID", **cls.META)

    @classmethod
    def parse(cls, value: Any, allow_nulls: bool = False) -> str | None:
        """The id in canonical form (hyphens dropped, lowercase); a ValueError when it is not one."""
        if value is None and allow_nulls:
            return None
        if isinstance(value, uuid.UUID):
            return value.hex
        if isinstance(value, str):
            candidate = value.replace("-", "").lower()
            if re.fullmatch(r"[0-9a-f]{32}", candidate):
                return candidate
        raise ValueError(f"Invalid entity ID {value}")
