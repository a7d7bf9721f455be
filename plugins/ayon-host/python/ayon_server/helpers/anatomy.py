"""Anatomies as addon code reads them: a project's, or the studio's primary preset.

Both come from the Pipewright server (the `anatomy` callback answers AYON's anatomy document). Outside the host
nothing is connected and the answer is AYON's built-in preset, which is what AYON uses when no preset is primary."""

from ayon_server import _bridge
from ayon_server.settings.anatomy import Anatomy


async def _anatomy(project_name: str | None) -> Anatomy:
    if not _bridge.connected():
        return Anatomy()
    document = await _bridge.server_call("anatomy", {"projectName": project_name})
    return Anatomy(**document)


async def get_project_anatomy(project_name: str) -> Anatomy:
    """The anatomy of `project_name`. A project the server does not know raises NotFoundException."""
    return await _anatomy(project_name)


async def get_primary_anatomy_preset() -> Anatomy:
    """The studio's primary anatomy preset, or the built-in one when none is primary."""
    return await _anatomy(None)
