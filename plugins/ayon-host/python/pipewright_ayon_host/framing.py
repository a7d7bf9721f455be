"""Frames: a 4-byte big-endian length, then that many bytes of UTF-8 JSON."""

import asyncio
import json
import struct
from typing import Any

from ayon_server.utils.json import to_jsonable

_HEADER = struct.Struct(">I")


class FrameError(Exception):
    """The byte stream is not a sequence of frames any more: the connection cannot continue."""


def encode_frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(to_jsonable(message, by_alias=False), ensure_ascii=False, separators=(",", ":"))
    data = body.encode("utf-8")
    return _HEADER.pack(len(data)) + data


async def read_frame(reader: asyncio.StreamReader) -> dict[str, Any] | None:
    """The next message, or None when the stream ended cleanly between frames."""
    try:
        header = await reader.readexactly(_HEADER.size)
    except asyncio.IncompleteReadError as error:
        if error.partial:
            raise FrameError("stream ended inside a frame header") from None
        return None
    (length,) = _HEADER.unpack(header)
    try:
        data = await reader.readexactly(length)
    except asyncio.IncompleteReadError:
        raise FrameError(f"stream ended inside a frame of {length} bytes") from None
    try:
        message = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FrameError(f"frame is not UTF-8 JSON: {error}") from None
    if not isinstance(message, dict):
        raise FrameError("frame is not a JSON object")
    return message
