"""Task types and AYON's built-in set."""

from ayon_server.settings.settings_field import SettingsField

from .aux_model import BaseAuxModel


class TaskType(BaseAuxModel):
    shortName: str = SettingsField("", title="Short name")
    color: str = SettingsField("#cccccc", title="Color", widget="color")
    icon: str = SettingsField("task_alt", title="Icon", widget="icon")


default_task_types = [
    TaskType(name=name, shortName=short_name, icon=icon, color=color)
    for name, short_name, icon, color in (
        ("Generic", "gener", "task_alt", "#5c6c79"),
        ("Art", "art", "palette", "#BC3333"),
        ("Modeling", "mdl", "language", "#E74C4C"),
        ("Texture", "tex", "brush", "#D84444"),
        ("Lookdev", "look", "ev_shadow", "#44944A"),
        ("Rigging", "rig", "construction", "#1AAFC3"),
        ("Edit", "edit", "imagesearch_roller", "#313894"),
        ("Layout", "lay", "nature_people", "#2359B3"),
        ("Setdress", "dress", "scene", "#1A655C"),
        ("Animation", "anim", "directions_run", "#3599F1"),
        ("FX", "fx", "fireplace", "#A43BC1"),
        ("Lighting", "lgt", "highlight", "#812DB1"),
        ("Paint", "paint", "video_stable", "#317537"),
        ("Compositing", "comp", "layers", "#612BA3"),
        ("Roto", "roto", "gesture", "#1C70B2"),
        ("Matchmove", "matchmove", "switch_video", "#1A777B"),
    )
]
