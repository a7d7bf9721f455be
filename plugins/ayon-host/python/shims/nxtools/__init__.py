"""The old `nxtools` names some addons still import (as AYON's own compatibility module offers them), answered by
Pipewright's `ayon_server.logging` and `ayon_server.utils`."""

__all__ = ["slugify", "indent", "logging", "log_traceback", "critical_error", "get_base_name"]

from ayon_server.logging import critical_error, log_traceback
from ayon_server.logging import logger as logging
from ayon_server.utils import get_base_name, indent, slugify
