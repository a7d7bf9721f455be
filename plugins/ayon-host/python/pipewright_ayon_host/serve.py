"""Serving the Pipewright server over stdin/stdout until it closes stdin."""

import asyncio
import os
import sys
from typing import Any, BinaryIO

from ayon_server import _bridge
from ayon_server.logging import logger

from .connection import Connection
from .host import Host


async def _stdin_reader() -> asyncio.StreamReader:
    """An asyncio reader over stdin (a pipe when the server runs us; a thread reads anything else)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**26)
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin.buffer)
    except ValueError:  # a regular file or a terminal: not a pipe the event loop can watch
        loop.run_in_executor(None, _pump, loop, reader, sys.stdin.buffer)
    return reader


def _pump(loop: asyncio.AbstractEventLoop, reader: asyncio.StreamReader, source: Any) -> None:
    while chunk := source.read1(65536) if hasattr(source, "read1") else source.read(65536):
        loop.call_soon_threadsafe(reader.feed_data, chunk)
    loop.call_soon_threadsafe(reader.feed_eof)


async def serve(frames: BinaryIO) -> None:
    host = Host()
    connection = Connection(await _stdin_reader(), frames, host.handle)
    _bridge.connect(connection.call)
    logger.info(f"Pipewright AYON addon host ready (pid {os.getpid()})")
    try:
        await connection.serve()
    finally:
        _bridge.connect(None)
    logger.info("The server closed the connection; exiting")
