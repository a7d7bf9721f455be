"""Built-in enum resolvers for `SettingsField(enum_resolver=...)`.

Post-processing calls a resolver with the parameters it names, taken from the schema context (`project_name`,
`settings_variant`, `user_name`, `site_id`, `addon`); each answers a list of values or of {"value", "label"} dicts.
Studio-level schemas (no project) read the primary anatomy preset."""

import functools
from typing import Any, Literal

from ayon_server import _bridge
from ayon_server.settings.anatomy import Anatomy

__all__ = [
    "anatomy_presets_enum",
    "anatomy_template_items_enum",
    "folder_types_enum",
    "get_primary_anatomy_preset",
    "link_types_enum",
    "secrets_enum",
    "task_types_enum",
]


# ayon_server.helpers.anatomy imports this package (for Anatomy), so it is imported when first used, not at load.


async def get_primary_anatomy_preset() -> Anatomy:
    """The studio's primary anatomy preset (AYON keeps this here too); see ayon_server.helpers.anatomy."""
    from ayon_server.helpers import anatomy

    return await anatomy.get_primary_anatomy_preset()


async def _anatomy_for(project_name: str | None) -> Anatomy:
    from ayon_server.helpers import anatomy

    if project_name is None:
        return await anatomy.get_primary_anatomy_preset()
    return await anatomy.get_project_anatomy(project_name)


async def folder_types_enum(project_name: str | None = None) -> list[str]:
    """Folder type names, in the anatomy's order."""
    return [folder_type.name for folder_type in (await _anatomy_for(project_name)).folder_types]


async def task_types_enum(project_name: str | None = None) -> list[str]:
    """Task type names, in the anatomy's order."""
    return [task_type.name for task_type in (await _anatomy_for(project_name)).task_types]


async def link_types_enum(project_name: str | None = None) -> list[dict[str, Any]]:
    """Link types as "link|input|output" values, labelled "Link (Input -> Output)", with their colour."""
    result = []
    for link in (await _anatomy_for(project_name)).link_types:
        name, source, target = link.link_type, link.input_type, link.output_type
        result.append(
            {
                "label": f"{name.capitalize()} ({source.capitalize()} -> {target.capitalize()})",
                "value": f"{name}|{source}|{target}",
                "color": link.color,
            }
        )
    return result


async def secrets_enum(project_name: str | None = None) -> list[str]:
    """Names of the studio's secrets, sorted. Needs the server: outside the host this raises
    ServiceUnavailableException, which post-processing shows as a disabled field with that message."""
    return sorted(await _bridge.server_call("secrets", {}))


async def anatomy_presets_enum() -> list[dict[str, str]]:
    """The anatomy preset choices. The protocol has no call listing preset names, so only AYON's two pseudo
    presets are offered: the primary preset and the built-in one."""
    primary_label = "<PRIMARY>" if _bridge.connected() else "<PRIMARY (built-in)>"
    return [{"value": "__primary__", "label": primary_label}, {"value": "__builtin__", "label": "<BUILT-IN>"}]


TemplateItemsCategory = Literal["work", "publish", "hero", "delivery", "others", "staging"]


def anatomy_template_items_enum(category: TemplateItemsCategory) -> functools.partial:
    """A resolver of the template names of one category ("publish", ...) of the studio or project anatomy.

    Use as `enum_resolver=anatomy_template_items_enum(category="publish")`; post-processing supplies
    `project_name` from the context."""
    return functools.partial(_template_names_enum, project_name=None, category=category)


async def _template_names_enum(project_name: str | None, category: TemplateItemsCategory) -> list[dict[str, str]]:
    templates = (await _anatomy_for(project_name or None)).dict()["templates"]
    names = sorted(template["name"] for template in templates.get(category, []))
    return [{"label": name, "value": name} for name in names]
