"""`EventStream`: dispatch and update go to the Pipewright server (`dispatchEvent`, `updateEvent` callbacks);
`subscribe` records the handler and its topic, which the host reports in the addon's description."""

import contextvars
import uuid
from typing import Any

from ayon_server._bridge import server_call
from ayon_server.events.base import EventModel, EventStatus, HandlerType


class Subscription:
    def __init__(self, topic: str, handler: HandlerType, all_nodes: bool, owner: Any) -> None:
        self.topic = topic
        self.handler = handler
        self.all_nodes = all_nodes
        self.owner = owner  # the addon that subscribed, when known


# Set by the host while it constructs an addon, so subscriptions made in initialize() are attributed to it
subscribing_addon: contextvars.ContextVar[Any] = contextvars.ContextVar("subscribing_addon", default=None)


class EventStream:
    model = EventModel
    subscriptions: dict[str, Subscription] = {}

    @classmethod
    def subscribe(cls, topic: str, handler: HandlerType, all_nodes: bool = False) -> str:
        owner = subscribing_addon.get() or getattr(handler, "__self__", None)
        token = uuid.uuid4().hex
        cls.subscriptions[token] = Subscription(topic, handler, all_nodes, owner)
        return token

    @classmethod
    def unsubscribe(cls, token: str) -> None:
        cls.subscriptions.pop(token, None)

    @classmethod
    def topics_of(cls, owner: Any) -> list[str]:
        """Topics the given addon subscribed to, in subscription order, each once."""
        topics = [item.topic for item in cls.subscriptions.values() if item.owner is owner]
        return list(dict.fromkeys(topics))

    @classmethod
    def unsubscribe_owner(cls, owner: Any) -> None:
        for token in [token for token, item in cls.subscriptions.items() if item.owner is owner]:
            del cls.subscriptions[token]

    @classmethod
    async def dispatch(
        cls,
        topic: str,
        *,
        sender: str | None = None,
        sender_type: str | None = None,
        hash: str | None = None,  # noqa: A002 - AYON's keyword
        project: str | None = None,
        user: str | None = None,
        depends_on: str | None = None,
        description: str | None = None,
        summary: dict[str, Any] | None = None,
        payload: dict[str, Any] | None = None,
        finished: bool = True,
        store: bool = True,
        reuse: bool = False,
        recipients: list[str] | None = None,
    ) -> str:
        """Create an event on the server; returns its id."""
        result = await server_call(
            "dispatchEvent",
            {
                "topic": topic,
                "description": description,
                "summary": summary or {},
                "payload": payload or {},
                "project": project,
                "user": user,
                "status": "finished" if finished else "pending",
                "dependsOn": depends_on,
                "hash": hash,
                "sender": sender,
                "senderType": sender_type,
                "store": store,
                "reuse": reuse,
            },
        )
        return result["id"] if isinstance(result, dict) else result

    @classmethod
    async def update(
        cls,
        event_id: str,
        *,
        sender: str | None = None,
        sender_type: str | None = None,
        project: str | None = None,
        user: str | None = None,
        status: EventStatus | None = None,
        description: str | None = None,
        summary: dict[str, Any] | None = None,
        payload: dict[str, Any] | None = None,
        progress: float | None = None,
        store: bool = True,
        retries: int | None = None,
        recipients: list[str] | None = None,
    ) -> bool:
        """Change an event on the server; a None leaves that field as it is. True when the event exists."""
        result = await server_call(
            "updateEvent",
            {
                "eventId": event_id,
                "sender": sender,
                "senderType": sender_type,
                "project": project,
                "user": user,
                "status": status,
                "description": description,
                "summary": summary,
                "payload": payload,
                "progress": progress,
                "retries": retries,
            },
        )
        return bool(result)
