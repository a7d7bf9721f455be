"""`ActionContext`: where the user invokes an action (project, entity type, selected entities, form data)."""

from typing import Any, Literal

from pydantic import validator

from ayon_server.exceptions import NotFoundException
from ayon_server.types import OPModel

ActionEntityType = Literal["project", "list", "folder", "task", "product", "version", "representation", "workfile"]


class ActionContext(OPModel):
    project_name: str | None = None
    entity_type: ActionEntityType | None = None
    entity_subtypes: list[str] | None = None
    entity_ids: list[str] | None = None
    form_data: dict[str, Any] | None = None

    # Without a project the action is global: the entity fields mean nothing, and are dropped.
    @validator("entity_type", "entity_subtypes", "entity_ids")
    def _only_within_a_project(cls, value: Any, values: dict[str, Any]) -> Any:
        return value if values.get("project_name") is not None else None

    @validator("entity_ids")
    def _ids_with_entity_type(cls, value: Any, values: dict[str, Any]) -> Any:
        if values.get("project_name") is None or values.get("entity_type") is None:
            return None
        return value if value is not None else []

    async def get_entities(self) -> list[Any]:
        """The selected entities the caller can read (missing ones skipped)."""
        from ayon_server.entities.project_level import ENTITY_CLASSES

        entity_class = ENTITY_CLASSES.get(self.entity_type or "")
        if self.project_name is None or entity_class is None or not self.entity_ids:
            return []
        entities = []
        for entity_id in self.entity_ids:
            try:
                entities.append(await entity_class.load(self.project_name, entity_id))
            except NotFoundException:
                continue
        return entities

    async def get_project_entity(self) -> Any:
        from ayon_server.entities import ProjectEntity

        return await ProjectEntity.load(self.project_name) if self.project_name else None

    # Contexts compare equal when they would list the same simple actions.
    def __hash__(self) -> int:
        several = len(self.entity_ids) > 1 if self.entity_ids else False
        return hash((self.project_name, self.entity_type, tuple(self.entity_subtypes or ()), several))

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ActionContext) and hash(self) == hash(other)
