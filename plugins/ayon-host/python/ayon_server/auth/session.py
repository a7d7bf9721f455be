"""`Session`: AYON's login sessions, kept in its Redis. Sessions are the Pipewright server's own business; addon
code in the host cannot create, read or end them."""

from ayon_server.lib.unavailable import UnavailableService


class Session(metaclass=UnavailableService):
    _unavailable_kind = "redis"
