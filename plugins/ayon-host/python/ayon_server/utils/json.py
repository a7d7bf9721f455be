"""JSON as AYON writes it (compact, UTF-8), able to encode what addon values hold: pydantic models, dataclasses,
tuples, sets, enums, dates, paths."""

import dataclasses
import datetime
import enum
import json
import os
import uuid
from typing import Any

from pydantic import BaseModel


def to_jsonable(value: Any, *, by_alias: bool = True) -> Any:
    """Plain JSON types for `value`: models become their dict (camelCase aliases, as FastAPI answers them),
    dataclasses their fields, tuples and sets lists, enums their value, dates ISO strings."""
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, BaseModel):
        return to_jsonable(value.dict(by_alias=by_alias), by_alias=by_alias)
    if isinstance(value, dict):
        return {str(to_jsonable(key)): to_jsonable(item, by_alias=by_alias) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(item, by_alias=by_alias) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_jsonable(dataclasses.asdict(value), by_alias=by_alias)
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value, by_alias=by_alias)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return value.hex
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def json_dumps(data: Any, *, default: Any = None) -> str:
    return json.dumps(to_jsonable(data), ensure_ascii=False, separators=(",", ":"))


def json_loads(data: str | bytes) -> Any:
    return json.loads(data)


def json_print(data: Any, header: str | None = None) -> None:
    """Pretty-print to the log (stderr), as AYON's debugging helper does."""
    from ayon_server.logging import logger

    text = json.dumps(to_jsonable(data), indent=2, ensure_ascii=False)
    logger.debug(f"{header}\n{text}" if header else text)
