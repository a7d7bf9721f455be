"""AYON's database and Redis, as seen by addon code on Pipewright: present, so imports work, and refusing every
use with a sentence that says what was called."""

from typing import Any

from ayon_server.exceptions import NotImplementedException

_SENTENCES = {
    "raw SQL": "raw SQL against AYON's database is not available on Pipewright ({})",
    "redis": "AYON's Redis store is not available on Pipewright ({})",
}


def unavailable(kind: str, what: str) -> NotImplementedException:
    """The 501 an unavailable call raises; also logged, so the operator sees which addon path needs work."""
    from ayon_server.logging import logger

    error = NotImplementedException(_SENTENCES[kind].format(what))
    logger.warning(error.detail)
    return error


class UnavailableService(type):
    """Metaclass: any public attribute not defined on the class is a function that raises when called (so
    `hasattr` and `except Postgres.SomeError` still work, while every query fails clearly)."""

    _unavailable_kind: str

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)

        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise unavailable(cls._unavailable_kind, f"{cls.__name__}.{name}")

        refuse.__name__ = name
        return refuse
