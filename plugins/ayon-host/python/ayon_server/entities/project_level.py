"""The six project-level entity classes: the same reader, different REST keys."""

from ayon_server.entities.core.projectlevel import ProjectLevelEntity


class FolderEntity(ProjectLevelEntity):
    entity_type = "folder"
    subtype_key = "folderType"

    @property
    def parent_id(self) -> str | None:
        return self._payload.get("parentId")


class TaskEntity(ProjectLevelEntity):
    entity_type = "task"
    subtype_key = "taskType"

    @property
    def parent_id(self) -> str | None:
        return self._payload.get("folderId")


class ProductEntity(ProjectLevelEntity):
    entity_type = "product"
    subtype_key = "productType"

    @property
    def parent_id(self) -> str | None:
        return self._payload.get("folderId")


class VersionEntity(ProjectLevelEntity):
    entity_type = "version"

    @property
    def parent_id(self) -> str | None:
        return self._payload.get("productId")


class RepresentationEntity(ProjectLevelEntity):
    entity_type = "representation"

    @property
    def parent_id(self) -> str | None:
        return self._payload.get("versionId")


class WorkfileEntity(ProjectLevelEntity):
    entity_type = "workfile"

    @property
    def parent_id(self) -> str | None:
        return self._payload.get("taskId")


ENTITY_CLASSES: dict[str, type[ProjectLevelEntity]] = {
    cls.entity_type: cls
    for cls in (FolderEntity, TaskEntity, ProductEntity, VersionEntity, RepresentationEntity, WorkfileEntity)
}
