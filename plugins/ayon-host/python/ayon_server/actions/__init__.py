__all__ = [
    "ActionContext",
    "ActionExecutor",
    "BaseActionManifest",
    "DynamicActionManifest",
    "ExecuteResponseModel",
    "SimpleActionManifest",
]

from .context import ActionContext
from .execute import ActionExecutor, ExecuteResponseModel
from .manifest import BaseActionManifest, DynamicActionManifest, SimpleActionManifest
