"""AYON addons' server side: the base class, and the library of loaded versions."""

__all__ = ["AddonLibrary", "BaseServerAddon", "ServerAddonDefinition"]

from ayon_server.addons.addon import BaseServerAddon
from ayon_server.addons.definition import ServerAddonDefinition
from ayon_server.addons.library import AddonLibrary
