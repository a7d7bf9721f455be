"""The entities AYON addons load: read-only views over what the Pipewright server answers, with the access of the
user the request is made for."""

__all__ = [
    "ProjectEntity",
    "FolderEntity",
    "ProductEntity",
    "VersionEntity",
    "RepresentationEntity",
    "TaskEntity",
    "UserEntity",
    "WorkfileEntity",
]

from ayon_server.entities.project import ProjectEntity
from ayon_server.entities.project_level import (
    FolderEntity,
    ProductEntity,
    RepresentationEntity,
    TaskEntity,
    VersionEntity,
    WorkfileEntity,
)
from ayon_server.entities.user import UserEntity
