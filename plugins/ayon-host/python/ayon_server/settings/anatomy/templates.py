"""Path templates: work, publish, hero, delivery, staging and other named templates, with AYON's defaults."""

from typing import Callable

from pydantic import validator

from ayon_server.settings.common import BaseSettingsModel
from ayon_server.settings.settings_field import SettingsField
from ayon_server.settings.validators import ensure_unique_names, normalize_name


class BaseTemplate(BaseSettingsModel):
    name: str = SettingsField(..., title="Name")

    @validator("name")
    def validate_name(cls, value):
        return normalize_name(value)


# The work, publish, hero and delivery templates share these fields; each keeps its own class, as the schema names
# them. (A comment, not a docstring: pydantic would put an inherited docstring in each schema's description.)
class _PathTemplate(BaseTemplate):
    directory: str = SettingsField(..., title="Directory template")
    file: str = SettingsField(..., title="File name template")


class WorkTemplate(_PathTemplate):
    pass


class PublishTemplate(_PathTemplate):
    pass


class HeroTemplate(_PathTemplate):
    pass


class DeliveryTemplate(_PathTemplate):
    pass


class CustomTemplate(BaseTemplate):
    _layout = "compact"
    value: str = SettingsField("", title="Template value")


class StagingDirectory(BaseTemplate):
    _layout = "compact"
    directory: str = SettingsField("")


_FOLDER = "{root[work]}/{project[name]}/{hierarchy}/{folder[name]}"
_PRODUCT_VERSION = _FOLDER + "/publish/{product[type]}/{product[name]}/{@version}"


# AYON's built-in templates of each group: (name, directory template, file name template)
_WORK = (
    (
        "default",
        _FOLDER + "/work/{task[name]}",
        "{project[code]}_{folder[name]}_{task[name]}_{@version}<_{comment}>.{ext}",
    ),
    ("unreal", "{root[work]}/{project[name]}/unreal/{task[name]}", "{project[code]}_{folder[name]}.{ext}"),
)
_PUBLISH = (
    (
        "default",
        _PRODUCT_VERSION,
        "{project[code]}_{folder[name]}_{product[name]}_{@version}<_{output}><.{@frame}><_{udim}>.{ext}",
    ),
    (
        "render",
        _PRODUCT_VERSION,
        "{project[code]}_{folder[name]}_{product[name]}_{@version}<_{output}><.{@frame}>.{ext}",
    ),
    ("online", _PRODUCT_VERSION, "{originalBasename}<.{@frame}><_{udim}>.{ext}"),
    ("source", "{root[work]}/{originalDirname}", "{originalBasename}.{ext}"),
    ("maya2unreal", _FOLDER + "/publish/{product[type]}", "{product[name]}_{@version}<_{output}><.{@frame}>.{ext}"),
    ("simpleUnrealTextureHero", _FOLDER + "/publish/{product[type]}/hero", "{originalBasename}.{ext}"),
    ("simpleUnrealTexture", _FOLDER + "/publish/{product[type]}/{@version}", "{originalBasename}_{@version}.{ext}"),
    ("unrealuasset", _PRODUCT_VERSION, "{originalBasename}.{ext}"),
)
_HERO = (
    (
        "default",
        _FOLDER + "/publish/{product[type]}/{product[name]}/hero",
        "{project[code]}_{folder[name]}_{product[name]}_hero<_{output}><.{@frame}><_{udim}>.{ext}",
    ),
)


def _built_in(template: type[_PathTemplate], rows: tuple[tuple[str, str, str], ...]) -> Callable[[], list]:
    """A default factory making fresh templates of the class from (name, directory, file) rows."""
    return lambda: [template(name=name, directory=directory, file=file) for name, directory, file in rows]


class Templates(BaseSettingsModel):
    version_padding: int = SettingsField(default=3, title="Version padding", gt=0)
    version: str = SettingsField(default="v{version:0>{@version_padding}}", title="Version template")
    frame_padding: int = SettingsField(default=4, title="Frame padding", gt=0)
    frame: str = SettingsField(default="{frame:0>{@frame_padding}}", title="Frame template")
    work: list[WorkTemplate] = SettingsField(default_factory=_built_in(WorkTemplate, _WORK), title="Work")
    publish: list[PublishTemplate] = SettingsField(
        title="Publish", default_factory=_built_in(PublishTemplate, _PUBLISH)
    )
    hero: list[HeroTemplate] = SettingsField(title="Hero", default_factory=_built_in(HeroTemplate, _HERO))
    delivery: list[DeliveryTemplate] = SettingsField(default_factory=list, title="Delivery")
    staging: list[StagingDirectory] = SettingsField(default_factory=list, title="Staging directories")
    others: list[CustomTemplate] = SettingsField(default_factory=list, title="Others")

    @validator("work", "publish", "hero", "delivery", "others", "staging")
    def validate_template_group(cls, value):
        ensure_unique_names(value)
        return value

    @validator("work", "publish", "hero")
    def validate_has_default(cls, value):
        # A ValueError on purpose: AYON reports it as a validation error of the field
        if not any(template.name == "default" for template in value):
            raise ValueError("Default template must be defined")
        return value
