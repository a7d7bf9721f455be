__all__ = ["WorkfileEntity"]

from ayon_server.entities.project_level import WorkfileEntity
