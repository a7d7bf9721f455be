"""Small dict and iteration helpers from AYON's utils."""

import datetime
import itertools
from collections.abc import Iterable, Iterator
from typing import Any


def dict_exclude(data: dict[str, Any], keys: Iterable[str], mode: str = "exact") -> dict[str, Any]:
    """`data` without `keys`; mode "startswith"/"endswith" drops keys by prefix/suffix."""
    keys = list(keys)

    def excluded(key: str) -> bool:
        if mode == "startswith":
            return any(key.startswith(item) for item in keys)
        if mode == "endswith":
            return any(key.endswith(item) for item in keys)
        return key in keys

    return {key: value for key, value in data.items() if not excluded(key)}


def dict_remove_path(data: dict[str, Any], path: list[str], remove_orphans: bool = True) -> None:
    """Delete the value at `path`; with remove_orphans, also the dicts the removal left empty. A missing path is
    not an error."""
    parents: list[tuple[dict[str, Any], str]] = []
    node: Any = data
    for key in path[:-1]:
        if not isinstance(node, dict) or key not in node:
            return
        parents.append((node, key))
        node = node[key]
    if not isinstance(node, dict) or not path or path[-1] not in node:
        return
    del node[path[-1]]
    if remove_orphans:
        for parent, key in reversed(parents):
            if parent[key] == {}:
                del parent[key]
            else:
                break


def dict_patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """`old` updated by `new`, recursively for nested dicts; a None in `new` removes the key."""
    result = dict(old)
    for key, value in new.items():
        if value is None:
            result.pop(key, None)
        elif isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = dict_patch(result[key], value)
        else:
            result[key] = value
    return result


def batched(iterable: Iterable[Any], size: int) -> Iterator[tuple[Any, ...]]:
    iterator = iter(iterable)
    while chunk := tuple(itertools.islice(iterator, size)):
        yield chunk


def now() -> datetime.datetime:
    """The current time, timezone-aware (UTC)."""
    return datetime.datetime.now(datetime.timezone.utc)
