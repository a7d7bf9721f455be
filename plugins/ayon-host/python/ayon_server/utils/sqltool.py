"""AYON's SQL text builders. They only serve queries against AYON's own tables, which Pipewright does not have."""

from ayon_server.lib.unavailable import UnavailableService


class SQLTool(metaclass=UnavailableService):
    """Every helper raises when called: see `ayon_server.lib.postgres`."""

    _unavailable_kind = "raw SQL"
