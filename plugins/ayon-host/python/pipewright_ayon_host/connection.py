"""The connection to the Pipewright server: requests both ways over one pair of pipes.

Each request of the server is served in its own task, with the request's id in `ORIGIN`, so callbacks the addon
code makes (through `ayon_server._bridge`) name the request they are made for, in every task it spawns."""

import asyncio
import contextvars
import itertools
from collections.abc import Awaitable, Callable
from typing import Any, BinaryIO

from ayon_server.exceptions import ServiceUnavailableException, exception_for
from ayon_server.logging import logger

from .errors import ProtocolError, error_answer
from .framing import FrameError, encode_frame, read_frame

ORIGIN: contextvars.ContextVar[int | None] = contextvars.ContextVar("origin", default=None)

Handler = Callable[[str, dict[str, Any]], Awaitable[Any]]


class Connection:
    def __init__(self, reader: asyncio.StreamReader, output: BinaryIO, handle: Handler) -> None:
        self._reader = reader
        self._output = output
        self._handle = handle
        self._outbox: asyncio.Queue[bytes] = asyncio.Queue()
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future] = {}
        self._serving: set[asyncio.Task] = set()
        self._closed = False

    # --- sending ------------------------------------------------------------------------------------------------

    async def _send(self, message: dict[str, Any]) -> None:
        # Encoded here, so a result JSON cannot carry fails in the task that produced it
        self._outbox.put_nowait(encode_frame(message))

    async def _write_frames(self) -> None:
        """The only writer of stdout: frames go out whole and in order, and a slow reader on the server side
        blocks a worker thread, never the event loop."""
        while True:
            frame = await self._outbox.get()
            try:
                await asyncio.to_thread(self._write, frame)
            except OSError as error:
                logger.error(f"Cannot write to the server any more: {error}")
                return
            finally:
                self._outbox.task_done()

    def _write(self, frame: bytes) -> None:
        view = memoryview(frame)
        while view:
            written = self._output.write(view)
            view = view[written:]

    async def call(self, method: str, params: dict[str, Any]) -> Any:
        """A callback to the server on behalf of the request being served; its error answer raises the matching
        AyonException."""
        if self._closed:
            raise ServiceUnavailableException("The Pipewright server has closed the connection")
        request_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        message: dict[str, Any] = {"id": request_id, "method": method, "params": params}
        if (origin := ORIGIN.get()) is not None:
            message["origin"] = origin
        try:
            await self._send(message)
            return await future
        finally:
            self._waiting.pop(request_id, None)

    # --- receiving ----------------------------------------------------------------------------------------------

    async def serve(self) -> None:
        """Read until the server closes stdin; then stop what is still running and return."""
        writer = asyncio.create_task(self._write_frames())
        try:
            while (message := await read_frame(self._reader)) is not None:
                self._receive(message)
        except FrameError as error:
            logger.error(f"Closing the connection: {error}")
        finally:
            await self._close()
            try:  # answers already made still go out, if the server still reads
                await asyncio.wait_for(self._outbox.join(), timeout=2)
            except asyncio.TimeoutError:
                pass
            writer.cancel()

    def _receive(self, message: dict[str, Any]) -> None:
        if "method" in message:
            task = asyncio.create_task(self._serve_request(message))
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)
        elif (future := self._waiting.get(message.get("id"))) is not None and not future.done():
            if "error" in message:
                error = message["error"] or {}
                future.set_exception(exception_for(int(error.get("status", 500)), str(error.get("detail", "Error"))))
            else:
                future.set_result(message.get("result"))
        else:
            logger.warning(f"Ignoring a response to no waiting callback: {str(message)[:200]}")

    async def _serve_request(self, message: dict[str, Any]) -> None:
        request_id = message.get("id")
        ORIGIN.set(request_id)
        method = message.get("method")
        try:
            params = message.get("params") or {}
            if not isinstance(method, str) or not isinstance(params, dict):
                raise ProtocolError("A request needs a method name and params as an object")
            answer: dict[str, Any] = {"id": request_id, "result": await self._handle(method, params)}
        except asyncio.CancelledError:
            raise
        except BaseException as error:  # noqa: BLE001 - every failure must become an answer, or the server waits
            answer = {"id": request_id, "error": error_answer(error, what=f"{method} {_addon_of(message)}")}
        try:
            await self._send(answer)
        except (TypeError, ValueError) as error:  # a result JSON cannot carry
            await self._send({"id": request_id, "error": error_answer(error, what=f"answering {method}")})

    async def _close(self) -> None:
        self._closed = True
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ServiceUnavailableException("The Pipewright server has closed the connection"))
        for task in list(self._serving):
            task.cancel()
        await asyncio.gather(*self._serving, return_exceptions=True)


def _addon_of(message: dict[str, Any]) -> str:
    params = message.get("params") or {}
    return f"{params.get('name', '')} {params.get('version', '')}".strip() if isinstance(params, dict) else ""
