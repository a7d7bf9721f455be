"""Response classes of AYON's API that addon handlers return."""

from typing import Any

from fastapi.responses import JSONResponse, Response
from pydantic import Field

from ayon_server.types import OPModel


class EmptyResponse(Response):
    """No content: 204 unless told otherwise."""

    def __init__(self, status_code: int = 204, **options: Any) -> None:
        super().__init__(status_code=status_code, **options)


class ErrorResponse(OPModel):
    code: int
    detail: str


class EntityIdResponse(OPModel):
    id: str = Field(..., min_length=32, max_length=32)


__all__ = ["EmptyResponse", "EntityIdResponse", "ErrorResponse", "JSONResponse"]
