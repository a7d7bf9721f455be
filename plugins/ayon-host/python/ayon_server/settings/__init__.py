"""AYON's settings machinery, as addons import it: the base model and field, shared models, enum resolvers,
validators; and what the host runs on them: schema post-processing, override layers, migration."""

__all__ = [
    "BaseSettingsModel",
    "SettingsField",
    "Field",
    "MultiplatformPathModel",
    "MultiplatformPathListModel",
    "TemplateWorkfileBaseOptions",
    "ImageIOConfigModel",
    "ImageIOFileRulesModel",
    "ImageIOBaseModel",
    "apply_overrides",
    "list_overrides",
    "extract_overrides",
    "pin_override",
    "remove_override",
    "migrate_settings_overrides",
    "postprocess_settings_schema",
    "task_types_enum",
    "folder_types_enum",
    "link_types_enum",
    "secrets_enum",
    "anatomy_presets_enum",
    "anatomy_template_items_enum",
    "ensure_unique_names",
    "normalize_name",
]

from pydantic import Field  # AYON still exports pydantic's Field here (deprecated in favour of SettingsField)

from ayon_server.settings.common import BaseSettingsModel, migrate_settings_overrides
from ayon_server.settings.settings_field import SettingsField
from ayon_server.settings.validators import ensure_unique_names, normalize_name

# enum imports the anatomy models, which need the three modules above
from ayon_server.settings.enum import (  # noqa: E402 - order matters, see above
    anatomy_presets_enum,
    anatomy_template_items_enum,
    folder_types_enum,
    link_types_enum,
    secrets_enum,
    task_types_enum,
)
from ayon_server.settings.models import (  # noqa: E402
    ImageIOBaseModel,
    ImageIOConfigModel,
    ImageIOFileRulesModel,
    MultiplatformPathListModel,
    MultiplatformPathModel,
    TemplateWorkfileBaseOptions,
)
from ayon_server.settings.overrides import (  # noqa: E402
    apply_overrides,
    extract_overrides,
    list_overrides,
    pin_override,
    remove_override,
)
from ayon_server.settings.postprocess import postprocess_settings_schema  # noqa: E402
