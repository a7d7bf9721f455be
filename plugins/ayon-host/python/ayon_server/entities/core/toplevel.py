"""Projects and users: the entities that live outside any project."""

from ayon_server.entities.core.base import BaseEntity


class TopLevelEntity(BaseEntity):
    pass
