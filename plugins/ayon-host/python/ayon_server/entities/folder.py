__all__ = ["FolderEntity"]

from ayon_server.entities.project_level import FolderEntity
