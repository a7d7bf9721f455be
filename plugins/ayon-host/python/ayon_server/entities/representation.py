__all__ = ["RepresentationEntity"]

from ayon_server.entities.project_level import RepresentationEntity
