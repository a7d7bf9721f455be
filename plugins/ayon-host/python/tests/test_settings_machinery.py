"""The settings machinery on small models: SettingsField, schema post-processing, override layers, the editor's
pin/remove/list helpers, migration, validators, anatomy and the built-in enum resolvers."""

import asyncio
import copy
import functools
import json
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the support module, however pytest imports this file
from test_settings_support import PYTHON_DIR  # also puts the compatibility package on sys.path
from pydantic import ValidationError, validator

from ayon_server import _bridge
from ayon_server.exceptions import BadRequestException, NotFoundException
from ayon_server.settings import (
    BaseSettingsModel,
    MultiplatformPathModel,
    SettingsField,
    anatomy_presets_enum,
    anatomy_template_items_enum,
    apply_overrides,
    ensure_unique_names,
    extract_overrides,
    folder_types_enum,
    link_types_enum,
    list_overrides,
    migrate_settings_overrides,
    normalize_name,
    pin_override,
    postprocess_settings_schema,
    remove_override,
    secrets_enum,
    task_types_enum,
)
from ayon_server.settings.anatomy import Anatomy, TaskType
from ayon_server.settings.postprocess import process_enum
from ayon_server.types import ColorRGB_float, ColorRGBA_hex, ColorRGBA_uint8, camelize


def run(coroutine):
    return asyncio.run(coroutine)


def processed_schema(model, **context):
    schema = copy.deepcopy(model.schema())
    run(postprocess_settings_schema(schema, model, context=context))
    return schema


@pytest.fixture
def server():
    """A fake Pipewright server behind the bridge; tests set `answers[method]` (a value or a callable)."""
    answers, calls = {}, []

    async def transport(method, params):
        calls.append((method, params))
        answer = answers[method]
        return answer(params) if callable(answer) else copy.deepcopy(answer)

    _bridge.connect(transport)
    yield answers, calls
    _bridge.connect(None)


# --- SettingsField ----------------------------------------------------------------------------------------------


def test_settings_field_puts_ayon_extras_in_field_info():
    info = SettingsField(
        "x",
        title="T",
        section="Main",
        widget="textarea",
        syntax="JSON",
        conditionalEnum=True,
        placeholder="type",
        examples=["first", "second"],
        not_a_pydantic_option=1,
    )
    assert info.default == "x" and info.title == "T"
    assert info.extra == {
        "example": "first",
        "section": "Main",
        "widget": "textarea",
        "placeholder": "type",
        "conditional_enum": True,
        "disabled": False,
        "syntax": "json",
    }
    assert SettingsField(scope=["site"]).extra == {"scope": ["site"], "disabled": False}
    assert SettingsField(example="e", examples=["a", "b"]).extra["example"] == "a"
    assert SettingsField(example="e").extra["example"] == "e"
    with pytest.raises(ValueError):
        SettingsField(1, default_factory=list)


# --- post-processing --------------------------------------------------------------------------------------------


async def async_choices(project_name, user_name, site_id=None):
    return [{"value": f"{project_name}:{user_name}", "label": "Mine"}, f"site={site_id}", 7, {"value": "no label"}]


def template_choices(category, project_name):
    return [f"{category}@{project_name}"]


def failing_choices():
    raise NotFoundException("Project gone")


class Leaf(BaseSettingsModel):
    _layout = "compact"
    pick: str = SettingsField("a", enum_resolver=lambda: ["a", "b"])
    hidden: str = SettingsField("", scope=[])


class GroupModel(BaseSettingsModel):
    _isGroup = True
    _title = "The group"
    leaf: Leaf = SettingsField(default_factory=Leaf)
    tint: ColorRGBA_hex = SettingsField("#ffffffff")


class OnlyInUnion(BaseSettingsModel):
    flavour: str = SettingsField("x", enum_resolver=lambda: ["x", "y"])


class Root(BaseSettingsModel):
    context_pick: str = SettingsField("", enum_resolver=async_choices, required_items=["x"], section="S")
    many: list[str] = SettingsField(
        default_factory=list, enum_resolver=functools.partial(template_choices, category="work")
    )
    broken: list[str] = SettingsField(default_factory=list, enum_resolver=failing_choices)
    static: str = SettingsField("b", enum=["a", {"value": "b", "label": "Bee"}])  # dropped: not a SettingsField option
    rgba: ColorRGBA_uint8 = SettingsField((1, 2, 3, 0.5), title="RGBA")
    rgb: ColorRGB_float = SettingsField((1.0, 0.0, 0.0))
    group: GroupModel = SettingsField(default_factory=GroupModel)
    leaves: list[Leaf] = SettingsField(default_factory=list)
    either: OnlyInUnion | int = SettingsField(0)
    plain: int = 3


def test_postprocess_resolves_enums_with_context_by_parameter_name():
    schema = processed_schema(Root, project_name="demo", user_name="ana", settings_variant="production")
    props = schema["properties"]
    json.dumps(schema)  # nothing callable left

    # async resolver, arguments by name from the context, a missing one as None; bad items skipped
    pick = props["context_pick"]
    assert pick["enum"] == ["demo:ana", "site=None"]
    assert pick["enumLabels"] == {"demo:ana": "Mine"}
    assert "enum_resolver" not in pick and "required_items" not in pick
    assert pick["requiredItems"] == ["x"] and pick["section"] == "S"
    # a partial: the context wins, the partial's keywords fill the rest; arrays get items.enum
    many = props["many"]
    assert many["items"] == {"type": "string", "enum": ["work@demo"]} and many["uniqueItems"] is True
    assert "enumLabels" not in many
    # an AyonException disables the field and says why
    broken = props["broken"]
    assert (broken["placeholder"], broken["disabled"], broken["items"]["enum"]) == ("Project gone", True, [])
    assert "enum" not in props["static"]  # SettingsField drops what it does not know, as AYON's does
    assert props["plain"]["scope"] == ["project", "studio"] and "disabled" not in props["plain"]


def test_postprocess_marks_groups_titles_layouts_colours_and_definitions():
    schema = processed_schema(Root)
    assert schema["isgroup"] is False and "title" not in schema
    group = schema["definitions"]["GroupModel"]
    assert (group["isgroup"], group["title"]) == (True, "The group")
    leaf = schema["definitions"]["Leaf"]
    assert (leaf["isgroup"], leaf["layout"]) == (False, "compact") and "title" not in leaf
    assert leaf["properties"]["pick"]["enum"] == ["a", "b"]
    assert leaf["properties"]["hidden"]["scope"] == []
    # models reached through a union's members are post-processed too
    assert schema["definitions"]["OnlyInUnion"]["properties"]["flavour"]["enum"] == ["x", "y"]
    assert json.loads(json.dumps(schema["properties"]["rgba"])) == {
        "title": "RGBA",
        "default": [1, 2, 3, 0.5],
        "disabled": False,
        "type": "string",
        "items": [{"title": "R", "type": "integer"}, {"title": "G", "type": "integer"},
                  {"title": "B", "type": "integer"}, {"title": "A", "type": "number"}],
        "minItems": 4,
        "maxItems": 4,
        "scope": ["project", "studio"],
        "widget": "color",
        "colorFormat": "uint8",
        "colorAlpha": True,
    }  # fmt: skip
    assert (schema["properties"]["rgb"]["colorFormat"], schema["properties"]["rgb"]["colorAlpha"]) == ("float", False)
    tint = group["properties"]["tint"]
    assert (tint["type"], tint["colorFormat"], tint["colorAlpha"]) == ("string", "hex", True)


def test_process_enum_unwraps_partials_and_passes_none_for_unknown_parameters():
    def resolver(project_name="default-ignored", category="x"):
        return [f"{project_name}/{category}"]

    assert run(process_enum(resolver, {})) == (["None/None"], {})
    assert run(process_enum(functools.partial(resolver, category="c"), {"project_name": "p"})) == (["p/c"], {})
    assert run(process_enum(lambda: "not a list")) == ([], {})

    class Addon:
        def choices(self, settings_variant):
            return [settings_variant]

    assert run(process_enum(Addon().choices, {"settings_variant": "staging"})) == (["staging"], {})


def test_other_resolver_errors_propagate():
    class Model(BaseSettingsModel):
        value: str = SettingsField("", enum_resolver=lambda: 1 / 0)

    with pytest.raises(ZeroDivisionError):
        processed_schema(Model)


# --- override layers --------------------------------------------------------------------------------------------


class Rule(BaseSettingsModel):
    name: str = SettingsField("")
    value: int = SettingsField(0)


class Options(BaseSettingsModel):
    _isGroup = True
    enabled: bool = SettingsField(True)
    level: int = SettingsField(1)


class Section(BaseSettingsModel):
    label: str = SettingsField("section")
    options: Options = SettingsField(default_factory=Options)
    tags: list[str] = SettingsField(default_factory=lambda: ["a", "b"])


class Config(BaseSettingsModel):
    count: int = SettingsField(1)
    ratio: float = SettingsField(0.5)
    color: ColorRGBA_uint8 = SettingsField((0, 0, 0, 1.0))
    section: Section = SettingsField(default_factory=Section)
    rules: list[Rule] = SettingsField(default_factory=lambda: [Rule(name="one", value=1)])
    site_only: str = SettingsField("", scope=["site"])

    @validator("rules")
    def unique(cls, value):
        ensure_unique_names(value)
        return value


def test_apply_overrides_replaces_lists_whole_and_drops_uncoercible_values(caplog):
    defaults = Config()
    defaults._has_studio_overrides = True
    layer = {
        "count": "not a number",
        "ratio": "2.5",
        "section": {"tags": ["z"], "options": {"level": 4}},
        "rules": [{"name": "two"}],
        "unknown": 1,
    }
    result = apply_overrides(defaults, layer)
    assert result.dict() == {
        "count": 1,  # int("not a number") raises ValueError: dropped, with a warning
        "ratio": 2.5,
        "color": (0, 0, 0, 1.0),
        "section": {"label": "section", "options": {"enabled": True, "level": 4}, "tags": ["z"]},
        "rules": [{"name": "two", "value": 0}],
        "site_only": "",
    }
    assert "Invalid value for count" in caplog.text
    assert result._has_studio_overrides is True and result._has_project_overrides is None
    assert defaults.count == 1 and defaults.section.tags == ["a", "b"]  # the input is untouched

    # validators run on every application
    with pytest.raises(BadRequestException, match="Duplicate name 'x'"):
        apply_overrides(defaults, {"rules": [{"name": "x"}, {"name": "x"}]})
    with pytest.raises(ValidationError):
        apply_overrides(defaults, {"rules": "not a list"})


def test_extract_overrides_groups_existing_pins_and_unpins():
    defaults = Config()
    edited = Config(count=2, section={"options": {"level": 9}, "tags": ["a", "b"]})
    assert extract_overrides(defaults, edited) == {"count": 2, "section": {"options": {"enabled": True, "level": 9}}}

    # already overridden keys stay, even at the inherited value; an existing branch is walked
    existing = {"ratio": 0.5, "section": {"label": "section"}}
    assert extract_overrides(defaults, defaults, existing=existing) == {"ratio": 0.5, "section": {"label": "section"}}

    pinned = extract_overrides(defaults, defaults, explicit_pins=[["rules"], ["section"], ["color"]])
    assert pinned == {
        "color": (0, 0, 0, 1.0),
        "section": {"label": "section", "options": {"enabled": True, "level": 1}, "tags": ["a", "b"]},
        "rules": [{"name": "one", "value": 1}],
    }
    unpinned = extract_overrides(
        defaults, edited, explicit_unpins=[["section", "options"], ["count"], ["not", "there"]]
    )
    assert unpinned == {}  # the emptied "section" went with its last key


def test_pin_and_remove_override():
    settings = apply_overrides(Config(), {"section": {"options": {"level": 3}}})
    assert pin_override(settings, {}, ["section", "options", "level"]) == {
        "section": {"options": {"enabled": True, "level": 3}}  # the group, pinned whole
    }
    assert pin_override(settings, {"count": 5}, ["rules", "0", "name"]) == {
        "count": 5,
        "rules": [{"name": "one", "value": 1}],  # a path into a list pins the list
    }
    assert pin_override(settings, {}, ["section"]) == {"section": {}}
    assert pin_override(settings, {}, ["ratio"]) == {"ratio": 0.5}
    with pytest.raises(BadRequestException, match="nope is not present"):
        pin_override(settings, {}, ["section", "nope"])

    layer = {"count": 2, "section": {"options": {"level": 3}}}
    assert remove_override(layer, ["section", "options"]) == {"count": 2}
    assert remove_override(layer, ["section", "missing"]) == layer
    assert layer == {"count": 2, "section": {"options": {"level": 3}}}  # not modified in place


def test_list_overrides_shapes_and_scopes():
    layer = {
        "count": 2,
        "color": [1, 2, 3, 0.5],
        "site_only": "x",
        "section": {"options": {"enabled": False, "level": 1}, "tags": ["q"]},
        "rules": [{"name": "one", "value": 5}],
    }
    settings = apply_overrides(Config(), layer)
    studio = ["studio", "project"]
    assert list_overrides(settings, layer, level="project") == {
        "root_count": {"path": ["count"], "value": 2, "level": "project", "inGroup": None, "scope": studio},
        "root_color": {
            "path": ["color"], "value": [1, 2, 3, 0.5], "level": "project", "inGroup": None, "scope": studio,
        },
        "root_section": {"path": ["section"], "type": "branch", "level": "project", "inGroup": None, "scope": studio},
        "root_section_options": {
            "path": ["section", "options"], "type": "group", "level": "project", "inGroup": None, "scope": studio,
        },
        "root_section_options_enabled": {
            "path": ["section", "options", "enabled"], "value": False, "level": "project",
            "inGroup": ["section", "options"], "scope": studio,
        },
        "root_section_options_level": {
            "path": ["section", "options", "level"], "value": 1, "level": "project",
            "inGroup": ["section", "options"], "scope": studio,
        },
        "root_section_tags": {
            "path": ["section", "tags"], "type": "list", "level": "project", "inGroup": None, "scope": studio,
        },
        "root_section_tags_0": {
            "path": ["section", "tags", "0"], "level": "default", "value": "q",
            "inGroup": ["section", "tags"], "scope": studio,
        },
        "root_rules": {"path": ["rules"], "type": "list", "level": "project", "inGroup": None, "scope": studio},
        "root_rules_0_name": {
            "path": ["rules", "0", "name"], "value": "one", "level": "project", "inGroup": ["rules"], "scope": studio,
        },
        "root_rules_0_value": {
            "path": ["rules", "0", "value"], "value": 5, "level": "project", "inGroup": ["rules"], "scope": studio,
        },
        "root_site_only": {"path": ["site_only"], "value": "x", "level": "project", "inGroup": None, "scope": ["site"]},
    }  # fmt: skip
    assert list_overrides(Config(), {}) == {}


# --- migration --------------------------------------------------------------------------------------------------


class OldStyle(BaseSettingsModel):
    name: str = SettingsField("")
    size: int = SettingsField(1)


class NewModel(BaseSettingsModel):
    size: int = SettingsField(1)
    paths: MultiplatformPathModel = SettingsField(default_factory=MultiplatformPathModel)
    items: list[OldStyle] = SettingsField(default_factory=list)
    annotated: Annotated[OldStyle, SettingsField(title="A")] = OldStyle()
    mode: str = SettingsField("a")


def test_migrate_settings_overrides_keeps_what_the_new_model_accepts(caplog):
    old = {
        "size": "12",
        "gone": True,
        "paths": {"windows": "C:/x", "beos": "/boot"},
        "items": [{"name": "a", "size": "oops", "extra": 1}, {"size": 3}],
        "annotated": {"size": 2},
        "mode": {"not": "a string"},
    }
    migrated = migrate_settings_overrides(old, NewModel, NewModel().dict())
    assert migrated == {
        "size": 12,
        "paths": {"windows": "C:/x"},
        "items": [{"name": "a"}, {"size": 3}],
        "annotated": {"size": 2},
    }
    assert "Skipping unknown key: gone" in caplog.text
    assert old["items"][0]["size"] == "oops"  # the input is untouched
    assert migrate_settings_overrides({"paths": "flat"}, NewModel, {}) == {}
    assert migrate_settings_overrides({"size": 4}, Annotated[NewModel, "meta"], {}) == {"size": 4}


# --- validators and types ---------------------------------------------------------------------------------------


def test_validators():
    assert normalize_name("  Čau světe! ") == "Cau svete"
    assert normalize_name("a/b", allowed_chars="a-z", replacement="_") == "a_b"
    assert normalize_name("any thing?", allowed_chars="*") == "any thing?"
    with pytest.raises(BadRequestException, match="Name must not be empty"):
        normalize_name("!!!")

    ensure_unique_names([Rule(name="a"), Rule(name="b")])
    with pytest.raises(BadRequestException, match="^Duplicate name 'a' in 'rules'$"):
        ensure_unique_names([Rule(name="a"), Rule(name="a")], field_name="rules")
    with pytest.raises(BadRequestException, match="Object without name provided"):
        ensure_unique_names([object()])
    assert camelize("required_items") == "requiredItems" and camelize("section") == "section"


# --- anatomy and the built-in resolvers -------------------------------------------------------------------------


def test_default_anatomy_is_ayons_builtin_preset():
    anatomy = Anatomy().dict()
    assert [root["name"] for root in anatomy["roots"]] == ["work"]
    assert anatomy["roots"][0]["linux"] == "/mnt/share/projects"
    assert [t["name"] for t in anatomy["templates"]["work"]] == ["default", "unreal"]
    assert anatomy["templates"]["version"] == "v{version:0>{@version_padding}}"
    assert [f["name"] for f in anatomy["folder_types"]] == ["Folder", "Library", "Asset", "Episode", "Sequence", "Shot"]
    assert anatomy["task_types"][0] == {
        "name": "Generic", "original_name": None, "shortName": "gener", "color": "#5c6c79", "icon": "task_alt",
    }  # fmt: skip
    assert [s["name"] for s in anatomy["statuses"]][:3] == ["Not ready", "Ready to start", "In progress"]
    assert [(link["link_type"], link["input_type"]) for link in anatomy["link_types"]][0] == ("generative", "version")
    assert [tag["name"] for tag in anatomy["tags"]] == ["important", "for reel"]
    assert anatomy["attributes"]["fps"] == 25 and anatomy["attributes"]["frameStart"] == 1001
    assert anatomy["product_base_types"]["default"] == {"color": "#cccccc", "icon": "deployed_code"}

    # each anatomy owns its lists
    first = Anatomy()
    first.task_types.append(TaskType(name="Extra"))
    assert len(Anatomy().task_types) == 16
    with pytest.raises(BadRequestException, match="Duplicate name 'Art' in 'task_types'"):
        Anatomy(task_types=[{"name": "Art"}, {"name": "Art"}])

    schema = processed_schema(Anatomy)
    assert (schema["title"], schema["layout"]) == ("Project anatomy", "root")
    priority = schema["definitions"]["ProjectAttribModel"]["properties"]["priority"]
    assert priority["enum"] == ["urgent", "high", "normal", "low"] and priority["enumLabels"]["low"] == "Low"


def test_resolvers_without_a_server_use_the_builtin_anatomy():
    assert run(task_types_enum())[:2] == ["Generic", "Art"]
    assert run(task_types_enum("any_project"))[:2] == ["Generic", "Art"]
    assert run(folder_types_enum()) == ["Folder", "Library", "Asset", "Episode", "Sequence", "Shot"]
    assert run(link_types_enum())[0] == {
        "label": "Generative (Version -> Version)", "value": "generative|version|version", "color": "#3f67de",
    }  # fmt: skip
    publish = anatomy_template_items_enum(category="publish")
    assert isinstance(publish, functools.partial)
    assert run(process_enum(publish, {}))[0][:2] == ["default", "maya2unreal"]
    assert [item["value"] for item in run(anatomy_presets_enum())] == ["__primary__", "__builtin__"]

    # secrets need the server: the field is shown disabled with the reason
    class Model(BaseSettingsModel):
        secret: str = SettingsField("", enum_resolver=secrets_enum)

    prop = processed_schema(Model)["properties"]["secret"]
    assert prop["disabled"] is True and "Pipewright server" in prop["placeholder"] and prop["enum"] == []


def test_resolvers_and_helpers_read_through_the_bridge(server):
    answers, calls = server
    project = Anatomy(task_types=[{"name": "Paint"}], templates={"work": [
        {"name": "default", "directory": "d", "file": "f"}, {"name": "alt", "directory": "d", "file": "f"},
    ]}).dict()  # fmt: skip
    answers["anatomy"] = lambda params: project if params["projectName"] == "demo" else Anatomy().dict()
    answers["secrets"] = ["zeta", "alpha"]

    from ayon_server.helpers.anatomy import get_primary_anatomy_preset, get_project_anatomy
    from ayon_server.settings import enum

    assert [t.name for t in run(get_project_anatomy("demo")).task_types] == ["Paint"]
    assert len(run(get_primary_anatomy_preset()).task_types) == 16
    assert len(run(enum.get_primary_anatomy_preset()).task_types) == 16
    assert run(task_types_enum("demo")) == ["Paint"]
    assert run(process_enum(anatomy_template_items_enum("work"), {"project_name": "demo"}))[0] == ["alt", "default"]
    assert run(secrets_enum()) == ["alpha", "zeta"]
    assert ("anatomy", {"projectName": "demo"}) in calls and ("anatomy", {"projectName": None}) in calls

    def missing(params):
        raise NotFoundException("Project not found")

    answers["anatomy"] = missing
    with pytest.raises(NotFoundException):
        run(get_project_anatomy("ghost"))


@pytest.mark.parametrize(
    "module",
    [
        "ayon_server.helpers.anatomy",
        "ayon_server.settings.anatomy.statuses",
        "ayon_server.settings.enum",
        "ayon_server.settings.validators",
        "ayon_server.settings.overrides",
        "ayon_server.types",
    ],
)
def test_each_module_can_be_imported_first(module):
    subprocess.run([sys.executable, "-c", f"import {module}"], cwd=PYTHON_DIR, check=True, capture_output=True)
