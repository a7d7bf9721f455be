"""`Redis`: AYON's cache and pub/sub. Not reachable from the addon host: every use raises a 501."""

from ayon_server.lib.unavailable import UnavailableService


class Redis(metaclass=UnavailableService):
    _unavailable_kind = "redis"
