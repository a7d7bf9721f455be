"""`Postgres`: AYON's connection pool. Pipewright's database has other tables, and the addon host holds no
credentials, so every query raises a 501 `AyonException` naming the call. An enum resolver that queries shows
AYON's placeholder; an endpoint that queries answers 501."""

from ayon_server.lib.unavailable import UnavailableService


class Postgres(metaclass=UnavailableService):
    _unavailable_kind = "raw SQL"

    # asyncpg's errors, so `except Postgres.UndefinedTableError:` in addon code still compiles and runs
    class ForeignKeyViolationError(Exception):
        pass

    class UniqueViolationError(Exception):
        pass

    class UndefinedTableError(Exception):
        pass

    class UndefinedColumnError(Exception):
        pass
