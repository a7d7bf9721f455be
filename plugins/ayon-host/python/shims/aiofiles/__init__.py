"""`aiofiles.open` over the builtin `open`: each file operation runs in a worker thread, so a handler that awaits
it does not stall the host's other requests."""

import asyncio
from typing import Any

__all__ = ["open"]


class AsyncFile:
    """The async face of an open file: the methods of the builtin file object, awaited."""

    def __init__(self, file: Any) -> None:
        self._file = file

    @property
    def name(self) -> str:
        return self._file.name

    @property
    def closed(self) -> bool:
        return self._file.closed

    async def read(self, size: int = -1) -> Any:
        return await asyncio.to_thread(self._file.read, size)

    async def readline(self) -> Any:
        return await asyncio.to_thread(self._file.readline)

    async def readlines(self) -> list[Any]:
        return await asyncio.to_thread(self._file.readlines)

    async def write(self, data: Any) -> int:
        return await asyncio.to_thread(self._file.write, data)

    async def writelines(self, lines: Any) -> None:
        await asyncio.to_thread(self._file.writelines, lines)

    async def seek(self, offset: int, whence: int = 0) -> int:
        return await asyncio.to_thread(self._file.seek, offset, whence)

    async def tell(self) -> int:
        return await asyncio.to_thread(self._file.tell)

    async def truncate(self, size: int | None = None) -> int:
        return await asyncio.to_thread(self._file.truncate, size)

    async def flush(self) -> None:
        await asyncio.to_thread(self._file.flush)

    async def close(self) -> None:
        await asyncio.to_thread(self._file.close)

    def __aiter__(self) -> "AsyncFile":
        return self

    async def __anext__(self) -> Any:
        line = await self.readline()
        if not line:
            raise StopAsyncIteration
        return line

    async def __aenter__(self) -> "AsyncFile":
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.close()


class _Opening:
    """What `aiofiles.open(...)` returns: awaited, or entered with `async with`."""

    def __init__(self, args: tuple, kwargs: dict) -> None:
        self._args = args
        self._kwargs = kwargs
        self._file: AsyncFile | None = None

    async def _open(self) -> AsyncFile:
        return AsyncFile(await asyncio.to_thread(_builtin_open, *self._args, **self._kwargs))

    def __await__(self):
        return self._open().__await__()

    async def __aenter__(self) -> AsyncFile:
        self._file = await self._open()
        return self._file

    async def __aexit__(self, *exc_info: Any) -> None:
        if self._file is not None:
            await self._file.close()


_builtin_open = open


def open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> _Opening:  # noqa: A001 - aiofiles' name
    return _Opening((file, mode, *args), kwargs)
