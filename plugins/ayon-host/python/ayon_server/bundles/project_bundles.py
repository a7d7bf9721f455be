"""Project bundles: a project may pin its own addon versions. The `bundles` callback reports them under
`projects` (`{project: {"production": {addon: version}, "staging": {...}}}`); a server without project bundles
leaves that out, and every project follows the studio bundles."""

from typing import Any, Literal

from ayon_server._bridge import server_call

Variant = Literal["production", "staging"]


async def _bundles() -> dict[str, Any]:
    return await server_call("bundles", {}) or {}


def get_project_bundle_name(project_name: str, variant: Variant) -> str:
    return f"__project__{project_name}__{variant}"


async def get_project_bundle_addons(project_name: str, variant: str) -> dict[str, str]:
    projects = (await _bundles()).get("projects") or {}
    return dict((projects.get(project_name) or {}).get(variant) or {})


async def has_project_bundle(project_name: str, variant: Variant) -> bool:
    return bool(await get_project_bundle_addons(project_name, variant))


async def get_studio_bundle_addons(variant: Variant) -> dict[str, str]:
    return dict((await _bundles()).get(variant) or {})


async def has_project_bundle_addon(project_name: str, addon_name: str, *, variant: str = "production") -> bool:
    version = (await get_project_bundle_addons(project_name, variant)).get(addon_name)
    return bool(version) and version not in ("__inherit__", "__disable__")
