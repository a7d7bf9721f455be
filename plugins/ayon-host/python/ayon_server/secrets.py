"""`Secrets`: AYON's secret store, read through the server (`secrets` lists names, `secret` reads one value).
Writing secrets is an administrator's act on the server, not something addon code does here."""

from ayon_server._bridge import server_call
from ayon_server.exceptions import NotImplementedException


class Secrets:
    @classmethod
    async def get(cls, key: str) -> str | None:
        return await server_call("secret", {"name": key})

    @classmethod
    async def all(cls) -> dict[str, str]:
        """Every secret the caller may read, by name."""
        names = await server_call("secrets", {})
        values: dict[str, str] = {}
        for name in names or []:
            value = await cls.get(name)
            if value is not None:
                values[name] = value
        return values

    @classmethod
    async def set(cls, key: str, value: str) -> None:
        raise NotImplementedException(f"Addon code cannot set secret {key} on Pipewright")

    @classmethod
    async def delete(cls, key: str) -> None:
        raise NotImplementedException(f"Addon code cannot delete secret {key} on Pipewright")
