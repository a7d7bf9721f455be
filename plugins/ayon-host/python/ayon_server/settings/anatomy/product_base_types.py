"""How product types look in the UI (colour, icon): a default and per-type overrides, AYON's built-in set."""

import copy
from typing import Annotated

from ayon_server.settings.common import BaseSettingsModel
from ayon_server.settings.settings_field import SettingsField


class ProductBaseType(BaseSettingsModel):
    """Product type customization settings."""

    _layout = "compact"

    name: Annotated[str, SettingsField(title="Name")] = ""
    color: Annotated[str, SettingsField(title="Color", widget="color")] = "#cccccc"
    icon: Annotated[str, SettingsField(title="Icon", widget="icon")] = "deployed_code"


default_product_type_definitions = [
    ProductBaseType(name=name, icon=icon)
    for name, icon in (
        ("image", "imagesmode"),
        ("render", "photo_library"),
        ("review", "photo_library"),
        ("plate", "camera_roll"),
        ("camera", "videocam"),
        ("model", "language"),
        ("texture", "texture"),
        ("look", "ev_shadow"),
        ("rig", "accessibility"),
        ("animation", "directions_run"),
        ("cache", "animation"),
        ("layout", "nature_people"),
        ("setdress", "forest"),
        ("groom", "content_cut"),
        ("matchmove", "switch_video"),
        ("vdbcache", "local_fire_department"),
        ("lightrig", "wb_incandescent"),
        ("lut", "opacity"),
        ("workfile", "home_repair_service"),
    )
]


class DefaultProductBaseType(BaseSettingsModel):
    color: Annotated[str, SettingsField(title="Default color", widget="color")] = "#cccccc"
    icon: Annotated[str, SettingsField(title="Default icon", widget="icon")] = "deployed_code"


class ProductBaseTypes(BaseSettingsModel):
    """Product types customization settings."""

    default: Annotated[
        DefaultProductBaseType,
        SettingsField(title="Default appearance", description="Default appearance for product types"),
    ] = DefaultProductBaseType()
    definitions: Annotated[
        list[ProductBaseType],
        SettingsField(
            title="Appearance overrides",
            default_factory=lambda: copy.deepcopy(default_product_type_definitions),
        ),
    ]
