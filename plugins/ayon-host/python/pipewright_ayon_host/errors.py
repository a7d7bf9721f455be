"""How an exception raised while serving a request becomes the `error` of its response."""

import traceback
from typing import Any

from fastapi import HTTPException
from pydantic import ValidationError

from ayon_server.exceptions import AyonException
from ayon_server.logging import logger


class ProtocolError(AyonException):
    """A request the protocol does not allow (unknown method, missing parameter): 400."""

    status = 400
    detail = "Bad request"


def validation_errors(error: ValidationError) -> list[dict[str, Any]]:
    return [{"loc": list(item["loc"]), "msg": item["msg"], "type": item["type"]} for item in error.errors()]


def one_line(error: BaseException) -> str:
    """`Type: message` on one line: what an operator reads first."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def error_answer(error: BaseException, *, what: str = "") -> dict[str, Any]:
    """The response `error` for `error`: an AyonException answers its own status and detail; pydantic refusing
    settings, 400 "Invalid settings" with the errors; an HTTPException (endpoints), its status and detail as
    FastAPI would; anything else, 500 with the traceback (also logged, since it is a bug somewhere)."""
    if isinstance(error, AyonException):
        answer = {"status": error.status, "detail": error.detail}
        if errors := getattr(error, "errors", None) or error.extra.get("errors"):
            answer["errors"] = errors
        if trace := getattr(error, "traceback", None):
            answer["traceback"] = trace
        return answer
    if isinstance(error, ValidationError):
        return {"status": 400, "detail": "Invalid settings", "errors": validation_errors(error)}
    if isinstance(error, HTTPException):
        answer: dict[str, Any] = {"status": error.status_code, "detail": error.detail}
        if error.headers:
            answer["headers"] = dict(error.headers)
        return answer
    trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    logger.error(f"{what or 'request'} failed: {one_line(error)}\n{trace}")
    return {"status": 500, "detail": one_line(error), "traceback": trace}
