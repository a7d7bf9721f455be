"""`attribute_library`: AYON keeps the attribute definitions in its database. The addon host has no copy, so the
library is empty; code that reads it gets empty lists (and `load()` does nothing)."""

from typing import Any


class AttributeLibrary:
    def __init__(self) -> None:
        self.data: dict[str, list[dict[str, Any]]] = {}
        self.info: dict[str, dict[str, Any]] = {}

    async def load(self) -> None:
        """AYON rereads public.attributes here; there is nothing to reread on Pipewright."""

    def __getitem__(self, entity_type: str) -> list[dict[str, Any]]:
        return self.data.get(entity_type, [])

    def by_name(self, name: str) -> dict[str, Any]:
        return self.info[name]

    def by_name_scoped(self, entity_type: str, name: str) -> dict[str, Any]:
        for attribute in self[entity_type]:
            if attribute.get("name") == name:
                return attribute
        raise KeyError(f"No attribute {name} on {entity_type}")

    def inheritable_attributes(self) -> list[str]:
        return [name for name, info in self.info.items() if info.get("inherit", True)]


attribute_library = AttributeLibrary()
