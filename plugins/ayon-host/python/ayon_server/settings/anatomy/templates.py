"""Path templates: work, publish, hero, delivery, staging and other named templates, with AYON's defaults."""

from pydantic import validator

from ayon_server.settings.common import BaseSettingsModel
from ayon_server.settings.settings_field import SettingsField
from ayon_server.settings.validators import ensure_unique_names, normalize_name


class BaseTemplate(BaseSettingsModel):
    name: str = SettingsField(..., title="Name")

    @validator("name")
    def validate_name(cls, value):
        return normalize_name(value)


class WorkTemplate(BaseTemplate):
    directory: str = SettingsField(..., title="Directory template")
    file: str = SettingsField(..., title="File name template")


class PublishTemplate(BaseTemplate):
    directory: str = SettingsField(..., title="Directory template")
    file: str = SettingsField(..., title="File name template")


class HeroTemplate(BaseTemplate):
    directory: str = SettingsField(..., title="Directory template")
    file: str = SettingsField(..., title="File name template")


class DeliveryTemplate(BaseTemplate):
    directory: str = SettingsField(..., title="Directory template")
    file: str = SettingsField(..., title="File name template")


class CustomTemplate(BaseTemplate):
    _layout = "compact"
    value: str = SettingsField("", title="Template value")


class StagingDirectory(BaseTemplate):
    _layout = "compact"
    directory: str = SettingsField("")


_FOLDER = "{root[work]}/{project[name]}/{hierarchy}/{folder[name]}"
_PRODUCT_VERSION = _FOLDER + "/publish/{product[type]}/{product[name]}/{@version}"


def _default_work() -> list[WorkTemplate]:
    return [
        WorkTemplate(
            name="default",
            directory=_FOLDER + "/work/{task[name]}",
            file="{project[code]}_{folder[name]}_{task[name]}_{@version}<_{comment}>.{ext}",
        ),
        WorkTemplate(
            name="unreal",
            directory="{root[work]}/{project[name]}/unreal/{task[name]}",
            file="{project[code]}_{folder[name]}.{ext}",
        ),
    ]


def _default_publish() -> list[PublishTemplate]:
    return [
        PublishTemplate(name=name, directory=directory, file=file)
        for name, directory, file in (
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
            (
                "maya2unreal",
                _FOLDER + "/publish/{product[type]}",
                "{product[name]}_{@version}<_{output}><.{@frame}>.{ext}",
            ),
            ("simpleUnrealTextureHero", _FOLDER + "/publish/{product[type]}/hero", "{originalBasename}.{ext}"),
            (
                "simpleUnrealTexture",
                _FOLDER + "/publish/{product[type]}/{@version}",
                "{originalBasename}_{@version}.{ext}",
            ),
            ("unrealuasset", _PRODUCT_VERSION, "{originalBasename}.{ext}"),
        )
    ]


def _default_hero() -> list[HeroTemplate]:
    return [
        HeroTemplate(
            name="default",
            directory=_FOLDER + "/publish/{product[type]}/{product[name]}/hero",
            file="{project[code]}_{folder[name]}_{product[name]}_hero<_{output}><.{@frame}><_{udim}>.{ext}",
        )
    ]


class Templates(BaseSettingsModel):
    version_padding: int = SettingsField(default=3, title="Version padding", gt=0)
    version: str = SettingsField(default="v{version:0>{@version_padding}}", title="Version template")
    frame_padding: int = SettingsField(default=4, title="Frame padding", gt=0)
    frame: str = SettingsField(default="{frame:0>{@frame_padding}}", title="Frame template")
    work: list[WorkTemplate] = SettingsField(default_factory=_default_work, title="Work")
    publish: list[PublishTemplate] = SettingsField(title="Publish", default_factory=_default_publish)
    hero: list[HeroTemplate] = SettingsField(title="Hero", default_factory=_default_hero)
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
