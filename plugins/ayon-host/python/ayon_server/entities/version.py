__all__ = ["VersionEntity"]

from ayon_server.entities.project_level import VersionEntity
