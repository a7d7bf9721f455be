__all__ = ["ProductEntity"]

from ayon_server.entities.project_level import ProductEntity
