"""What an addon uses that Pipewright cannot serve, found at load time so the operator knows before it fails:
AYON's database, Redis and sessions imported by the addon's modules, and routers added with add_router."""

import sys

from ayon_server.addons import BaseServerAddon
from ayon_server.auth.session import Session
from ayon_server.lib.postgres import Postgres
from ayon_server.lib.redis import Redis
from ayon_server.utils import SQLTool

_UNSUPPORTED_OBJECTS: dict[int, str] = {
    id(Postgres): "lib.postgres.Postgres",
    id(Redis): "lib.redis.Redis",
    id(SQLTool): "utils.SQLTool",
    id(Session): "auth.session.Session",
}


def unsupported_uses(module_name: str, addon: BaseServerAddon) -> list[str]:
    """Sorted labels of the unsupported names bound in the addon's modules, plus "add_router" when it added
    routers (only add_endpoint routes are served)."""
    found: set[str] = set()
    for name, module in list(sys.modules.items()):
        if name != module_name and not name.startswith(module_name + "."):
            continue
        for value in vars(module).values():
            if (label := _UNSUPPORTED_OBJECTS.get(id(value))) is not None:
                found.add(label)
    if addon.routers:
        found.add("add_router")
    return sorted(found)
