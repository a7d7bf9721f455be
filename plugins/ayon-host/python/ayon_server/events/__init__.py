"""AYON's event stream, as addon code uses it."""

__all__ = ["EventStream", "EventModel", "EventStatus", "HandlerType", "dispatch_event", "update_event"]

from typing import Any

from ayon_server.events.base import EventModel, EventStatus, HandlerType
from ayon_server.events.eventstream import EventStream


async def dispatch_event(topic: str, **options: Any) -> str:
    """The older spelling of `EventStream.dispatch`, kept by AYON for addons that still use it."""
    return await EventStream.dispatch(topic, **options)


async def update_event(event_id: str, **options: Any) -> bool:
    """The older spelling of `EventStream.update`."""
    return await EventStream.update(event_id, **options)
