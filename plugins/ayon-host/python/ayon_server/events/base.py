"""`EventModel`: an event as AYON's event stream holds it."""

import datetime
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from pydantic import Field

from ayon_server.types import OPModel

EventStatus = Literal["pending", "in_progress", "finished", "failed", "aborted", "restarted"]


class EventModel(OPModel):
    id: str = Field(default_factory=lambda: uuid.uuid1().hex)
    hash: str = Field(default_factory=lambda: uuid.uuid4().hex)
    topic: str
    sender: str | None = None
    sender_type: str | None = None
    project: str | None = None
    user: str | None = None
    depends_on: str | None = None
    status: EventStatus = "pending"
    retries: int = 0
    description: str | None = None
    summary: dict[str, Any] = Field(default_factory=dict)
    payload: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime.datetime = Field(default_factory=datetime.datetime.now)
    updated_at: datetime.datetime = Field(default_factory=datetime.datetime.now)


HandlerType = Callable[[EventModel], Awaitable[None]]
