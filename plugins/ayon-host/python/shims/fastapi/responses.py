"""Responses a handler may return. The host turns them into the endpoint answer: `FileResponse` names the file,
`JSONResponse` carries JSON, any other `Response` its bytes."""

import json
import mimetypes
import os
from typing import Any, Mapping


class Response:
    media_type: str | None = None

    def __init__(
        self,
        content: Any = None,
        status_code: int = 200,
        headers: Mapping[str, str] | None = None,
        media_type: str | None = None,
        background: Any = None,
    ) -> None:
        self.status_code = status_code
        if media_type is not None:
            self.media_type = media_type
        self.background = background
        self.body = self.render(content)
        self.headers = {name.lower(): value for name, value in (headers or {}).items()}
        if self.media_type and "content-type" not in self.headers:
            self.headers["content-type"] = self.media_type

    def render(self, content: Any) -> bytes:
        if content is None:
            return b""
        if isinstance(content, bytes | bytearray | memoryview):
            return bytes(content)
        return str(content).encode("utf-8")


class PlainTextResponse(Response):
    media_type = "text/plain; charset=utf-8"


class HTMLResponse(Response):
    media_type = "text/html; charset=utf-8"


class JSONResponse(Response):
    media_type = "application/json"

    def __init__(self, content: Any = None, status_code: int = 200, **options: Any) -> None:
        self.content = content
        super().__init__(content, status_code, **options)

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


ORJSONResponse = JSONResponse
UJSONResponse = JSONResponse


class RedirectResponse(Response):
    def __init__(self, url: Any, status_code: int = 307, headers: Mapping[str, str] | None = None,
                 **options: Any) -> None:  # fmt: skip
        super().__init__(b"", status_code, headers, **options)
        self.headers["location"] = str(url)


class FileResponse(Response):
    """A file sent as it is on disk; the host answers its absolute path and the server streams it."""

    def __init__(
        self,
        path: str | os.PathLike,
        status_code: int = 200,
        headers: Mapping[str, str] | None = None,
        media_type: str | None = None,
        background: Any = None,
        filename: str | None = None,
        **options: Any,
    ) -> None:
        self.path = os.path.abspath(os.fspath(path))
        self.filename = filename
        guessed = mimetypes.guess_type(filename or self.path)[0]
        super().__init__(None, status_code, headers, media_type or guessed or "application/octet-stream", background)
        if filename is not None and "content-disposition" not in self.headers:
            self.headers["content-disposition"] = f'attachment; filename="{filename}"'


class StreamingResponse(Response):
    """Collected whole: the protocol carries a body, not a stream."""

    def __init__(self, content: Any, status_code: int = 200, **options: Any) -> None:
        self.iterator = content
        super().__init__(None, status_code, **options)
