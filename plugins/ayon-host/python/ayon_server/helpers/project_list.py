"""`get_project_list`: the projects the caller may open, from the `projects` callback."""

import datetime

from ayon_server._bridge import server_call
from ayon_server.types import OPModel
from ayon_server.utils import get_nickname


class ProjectListItem(OPModel):
    name: str
    code: str
    active: bool = True
    library: bool = False
    created_at: datetime.datetime
    nickname: str = ""
    role: str | None = None


async def get_project_list() -> list[ProjectListItem]:
    items = []
    for row in await server_call("projects", {}) or []:
        item = ProjectListItem(**row)
        item.nickname = item.nickname or get_nickname(str(row.get("createdAt")) + item.name, 2)
        items.append(item)
    return items


async def build_project_list() -> list[ProjectListItem]:
    """AYON rebuilds its cached list here; the server's answer is always current."""
    return await get_project_list()
