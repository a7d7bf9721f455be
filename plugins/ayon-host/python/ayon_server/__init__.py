"""Pipewright's own `ayon_server`: the part of AYON's server package that AYON addons import, written for
Pipewright's addon host. Addon code runs in the host process; whatever it reads or writes of the studio goes
through calls into the Pipewright server (see `ayon_server._bridge`), checked against the calling user."""

__version__ = "1.11.3"
