__all__ = ["TaskEntity"]

from ayon_server.entities.project_level import TaskEntity
