__all__ = ["BaseEntity", "ProjectLevelEntity", "TopLevelEntity", "attribute_library"]

from ayon_server.entities.core.attrib import attribute_library
from ayon_server.entities.core.base import BaseEntity
from ayon_server.entities.core.projectlevel import ProjectLevelEntity
from ayon_server.entities.core.toplevel import TopLevelEntity
