"""The settings machinery against the settings models of six real AYON addons (built by
scripts/build-ayon-addons.sh): schemas, defaults, enum resolvers, override layers, validators."""

import copy
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the support module, however pytest imports this file
from test_settings_support import (
    ADDONS,
    StubServerAddon,
    defaults_of,
    model_of,
    property_at,
    schema_of,
    settings_module,
    site_model_of,
    walk_properties,
)

from ayon_server import _bridge
from ayon_server.exceptions import BadRequestException
from ayon_server.settings import BaseSettingsModel, apply_overrides, extract_overrides, list_overrides
from ayon_server.settings.anatomy import Anatomy, Status, TaskType

DEFAULT_TASK_TYPES = [
    "Generic", "Art", "Modeling", "Texture", "Lookdev", "Rigging", "Edit", "Layout", "Setdress", "Animation", "FX",
    "Lighting", "Paint", "Compositing", "Roto", "Matchmove",
]  # fmt: skip


def studio_schema(addon: str) -> dict:
    """The studio schema, with the resolver context AYON gives it (the addon sees its own default settings)."""
    return schema_of(model_of(addon), addon=StubServerAddon(defaults_of(addon)), settings_variant="production")


def reachable_fields(model: type[BaseSettingsModel]):
    """(model class, field name, field) of every settings model reachable from `model`."""
    seen, queue = set(), [model]
    while queue:
        current = queue.pop()
        if current in seen:
            continue
        seen.add(current)
        for name, field in current.__fields__.items():
            yield current, name, field
            for candidate in [field.type_, *(sub.type_ for sub in field.sub_fields or [])]:
                if isinstance(candidate, type) and issubclass(candidate, BaseSettingsModel):
                    queue.append(candidate)


@pytest.fixture
def connected_server():
    """A fake server behind the bridge, answering `anatomy` with a project anatomy of its own."""
    calls = []
    anatomy = Anatomy(
        task_types=[TaskType(name="Design"), TaskType(name="Review")],
        statuses=[
            Status(name="Draft", scope=["version"]),
            Status(name="Final", scope=["version", "task"]),
            Status(name="Waiting", scope=["task"]),
        ],
    ).dict()

    async def transport(method, params):
        calls.append((method, params))
        if method == "anatomy":
            return copy.deepcopy(anatomy)
        raise AssertionError(f"unexpected call {method}")

    _bridge.connect(transport)
    yield calls
    _bridge.connect(None)


# --- every addon ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("addon", ADDONS)
def test_schema_is_json_and_fully_post_processed(addon):
    schema = studio_schema(addon)
    text = json.dumps(schema)  # no resolver callable left behind
    assert "enum_resolver" not in text and '"required_items"' not in text
    assert "title" not in schema and schema["isgroup"] is False
    for definition in schema["definitions"].values():
        assert isinstance(definition["isgroup"], bool)

    # Every property has a scope; "disabled" comes with SettingsField, so fields declared without it lack it, as
    # in AYON (maya's ExtractGLBModel.enabled is a plain `bool = True`).
    declared_plain = {
        (cls.__name__, name)
        for cls, name, field in reachable_fields(model_of(addon))
        if "disabled" not in field.field_info.extra
    }
    for model_name, name, prop in walk_properties(schema):
        assert isinstance(prop["scope"], list), (model_name, name)
        assert ("disabled" in prop) == ((model_name, name) not in declared_plain), (model_name, name)
    assert declared_plain == ({("ExtractGLBModel", "enabled")} if addon == "maya" else set())


@pytest.mark.parametrize("addon", ADDONS)
def test_every_enum_resolver_resolved(addon):
    schema = studio_schema(addon)
    definitions = {"<root>": schema, **schema["definitions"]}
    resolved = 0
    for cls, name, field in reachable_fields(model_of(addon)):
        resolver = field.field_info.extra.get("enum_resolver")
        if resolver is None:
            continue
        prop = definitions["<root>" if cls is model_of(addon) else cls.__name__]["properties"][name]
        values = prop["items"]["enum"] if prop.get("type") == "array" else prop["enum"]
        assert isinstance(values, list), (cls.__name__, name)
        if getattr(resolver, "__name__", "") == "task_types_enum":
            # No server connected: the built-in anatomy, as AYON without a primary preset
            assert values == DEFAULT_TASK_TYPES, (cls.__name__, name)
            assert prop["uniqueItems"] is True
            resolved += 1
    assert resolved > 0 or addon == "deadline"


@pytest.mark.parametrize("addon", ADDONS)
def test_defaults_are_json_and_stable_through_an_empty_layer(addon):
    defaults = defaults_of(addon)
    as_json = json.loads(json.dumps(defaults.dict()))
    assert apply_overrides(defaults, {}).dict() == defaults.dict()
    assert extract_overrides(defaults, model_of(addon)(**as_json)) == {}


# A boolean per addon, flipped in the round trip below; deadline's sits two non-group models deep.
FLIPPED = {
    "core": ["imageio", "activate_global_color_management"],
    "applications": ["applications", "maya", "enabled"],
    "maya": ["use_cbid_workflow"],
    "houdini": ["general", "add_self_publish_button"],
    "deadline": ["publish", "MayaSubmitDeadline", "import_reference"],
    "blender": ["set_frames_startup"],
}


@pytest.mark.parametrize("addon", ADDONS)
def test_override_round_trip_stores_only_the_change(addon):
    defaults = defaults_of(addon)
    path = FLIPPED[addon]
    edited_values = defaults.dict()
    holder = edited_values
    for key in path[:-1]:
        holder = holder[key]
    new_value = not holder[path[-1]]
    holder[path[-1]] = new_value
    edited = model_of(addon)(**edited_values)

    overrides = extract_overrides(defaults, edited)
    expected: dict = {path[-1]: new_value}
    for key in reversed(path[:-1]):
        expected = {key: expected}
    assert overrides == expected
    assert apply_overrides(defaults, overrides).dict() == edited.dict()
    # and back: the layer that restores the defaults, given the stored one, keeps the key with the default value
    restored = extract_overrides(defaults, defaults, existing=overrides)
    assert apply_overrides(defaults, restored).dict() == defaults.dict()
    assert restored != {} and restored != overrides


# --- core -------------------------------------------------------------------------------------------------------


def test_core_defaults_and_schema():
    defaults = defaults_of("core").dict()
    assert defaults["update_check_interval"] == 5
    assert defaults["reviewable_layers"]["review_layers"] == ["Beauty"]
    assert defaults["imageio"]["file_rules"]["rules"][0]["name"] == "example"
    assert defaults["imageio"]["ocio_config_profiles"][0]["builtin_path"] == "{BUILTIN_OCIO_ROOT}/aces_1.2/config.ocio"
    assert json.loads(defaults["environments"])["STUDIO_SW"]["windows"] == "P:/REPO_SW"
    assert defaults["publish"]["ExtractThumbnail"]["profiles"][0]["ffmpeg_args"]["input"] == ["-apply_trc gamma22"]

    schema = studio_schema("core")
    studio_name = schema["properties"]["studio_name"]
    assert studio_name["scope"] == ["studio"] and studio_name["disabled"] is False
    assert schema["properties"]["update_check_interval"]["scope"] == ["project", "studio"]
    environments = schema["properties"]["environments"]
    assert (environments["widget"], environments["syntax"]) == ("textarea", "json")
    assert schema["properties"]["project_folder_structure"]["section"] == "---"

    definitions = schema["definitions"]
    assert definitions["ExtractThumbnailModel"]["isgroup"] is True
    color = definitions["ExtractThumbnailFromSourceModel"]["properties"]["background_color"]
    assert (color["type"], color["widget"], color["colorFormat"]) == ("string", "color", "uint8")
    assert color["colorAlpha"] is True
    profile_type = definitions["CoreImageIOConfigProfilesModel"]["properties"]["type"]
    assert profile_type["enum"] == ["builtin_path", "custom_path", "published_product", "disabled"]
    assert profile_type["enumLabels"]["custom_path"] == "Path to OCIO config"
    assert profile_type["conditional_enum"] is True and profile_type["conditionalEnum"] is True
    # core's own resolver reads the anatomy's statuses that apply to versions
    status = definitions["CollectStatusProfile"]["properties"]["default_status"]
    assert status["enum"] == ["Pending review", "Approved", "Omitted"]


def test_core_project_schema_reads_the_project_anatomy_from_the_server(connected_server):
    schema = schema_of(model_of("core"), project_name="demo", settings_variant="production")
    profile = schema["definitions"]["CollectStatusProfile"]["properties"]
    assert profile["task_types"]["items"]["enum"] == ["Design", "Review"]
    assert profile["default_status"]["enum"] == ["Draft", "Final"]
    assert ("anatomy", {"projectName": "demo"}) in connected_server
    assert all(params == {"projectName": "demo"} for _, params in connected_server)


def test_core_studio_schema_reads_the_primary_preset_from_the_server(connected_server):
    schema = schema_of(model_of("core"), settings_variant="production")
    assert schema["definitions"]["CollectStatusProfile"]["properties"]["task_types"]["items"]["enum"] == [
        "Design",
        "Review",
    ]
    assert ("anatomy", {"projectName": None}) in connected_server


def test_core_refuses_duplicate_file_rule_names():
    values = copy.deepcopy(settings_module("core").DEFAULT_VALUES)
    rules = values["imageio"]["file_rules"]["rules"]
    rules.append(dict(rules[0]))
    with pytest.raises(BadRequestException, match="^Duplicate name 'example'$"):
        model_of("core")(**values)

    # an override layer goes through the same validators when it is applied
    duplicated = {"imageio": {"file_rules": {"rules": rules}}}
    with pytest.raises(BadRequestException, match="Duplicate name 'example'"):
        apply_overrides(defaults_of("core"), duplicated)


def test_core_group_is_stored_whole_and_listed_as_group():
    defaults = defaults_of("core")
    edited_values = defaults.dict()
    edited_values["publish"]["ExtractThumbnail"]["enabled"] = False
    edited_values["studio_name"] = "Pipewright Studio"
    edited = model_of("core")(**edited_values)

    overrides = extract_overrides(defaults, edited)
    assert overrides == {
        "studio_name": "Pipewright Studio",
        "publish": {"ExtractThumbnail": edited_values["publish"]["ExtractThumbnail"]},
    }
    applied = apply_overrides(defaults, overrides)
    assert applied.dict() == edited.dict()

    listed = list_overrides(applied, overrides, level="studio")
    assert listed["root_studio_name"] == {
        "path": ["studio_name"],
        "value": "Pipewright Studio",
        "level": "studio",
        "inGroup": None,
        "scope": ["studio"],
    }
    assert listed["root_publish"] == {
        "path": ["publish"], "type": "branch", "level": "studio", "inGroup": None, "scope": ["studio", "project"],
    }  # fmt: skip
    assert listed["root_publish_ExtractThumbnail"]["type"] == "group"
    assert listed["root_publish_ExtractThumbnail_enabled"] == {
        "path": ["publish", "ExtractThumbnail", "enabled"],
        "value": False,
        "level": "studio",
        "inGroup": ["publish", "ExtractThumbnail"],
        "scope": ["studio", "project"],
    }
    profiles = listed["root_publish_ExtractThumbnail_profiles"]
    assert (profiles["type"], profiles["inGroup"]) == ("list", ["publish", "ExtractThumbnail"])
    # list items: model items field by field, plain items with level "default"
    assert listed["root_publish_ExtractThumbnail_profiles_0_integrate_thumbnail"]["value"] is True
    assert listed["root_publish_ExtractThumbnail_profiles_0_ffmpeg_args_input_0"] == {
        "path": ["publish", "ExtractThumbnail", "profiles", "0", "ffmpeg_args", "input", "0"],
        "level": "default",
        "value": "-apply_trc gamma22",
        "inGroup": ["publish", "ExtractThumbnail"],
        "scope": ["studio", "project"],
    }
    assert "root_update_check_interval" not in listed


# --- applications -----------------------------------------------------------------------------------------------


def test_applications_defaults_and_resolvers_from_its_own_settings():
    defaults = defaults_of("applications")
    values = defaults.dict()
    assert values["applications"]["maya"]["variants"][0]["name"] == "2026"
    assert values["project_applications"]["profiles"][0]["allow_type"] == "all_applications"
    assert values["tool_groups"][0]["name"] == "htoa"

    addon = StubServerAddon(defaults)
    schema = schema_of(model_of("applications"), addon=addon, settings_variant="staging", project_name=None)
    assert schema["properties"]["applications"]["scope"] == ["studio"]
    assert schema["properties"]["applications"]["section"] == "Definitions"

    profile = schema["definitions"]["ProjectApplicationsProfile"]["properties"]
    apps = profile["applications"]
    assert "maya/2026" in apps["items"]["enum"] and apps["uniqueItems"] is True
    assert apps["enumLabels"]["maya/2026"] == "Maya 2026"
    assert apps["widget"] == "sortable_multiselect"
    assert profile["allow_type"]["enum"] == ["all_applications", "applications"]
    tools = schema["definitions"]["ProjectToolsProfile"]["properties"]["tools"]
    assert "htoa/5-4-2-7" in tools["items"]["enum"]
    # the resolvers got the addon and the variant by parameter name
    assert addon.calls and all(call == ("studio", {"variant": "staging"}) for call in addon.calls)


# --- maya -------------------------------------------------------------------------------------------------------


def test_maya_defaults_colours_and_round_trip():
    defaults = defaults_of("maya")
    values = defaults.dict()
    assert values["use_cbid_workflow"] is True
    assert values["ext_mapping"][0] == {"name": "model", "value": "ma"}
    assert values["scene_units"] == {"linear_units": "cm", "angular_units": "deg"}
    assert tuple(values["load"]["colors"]["model"]) == (209, 132, 30, 1.0)

    schema = studio_schema("maya")
    model_color = property_at(schema, "load", "colors", "model")
    assert (model_color["type"], model_color["widget"], model_color["colorFormat"]) == ("string", "color", "uint8")

    edited_values = copy.deepcopy(values)
    edited_values["load"]["colors"]["model"] = [1, 2, 3, 0.5]
    edited_values["ext_mapping"] = edited_values["ext_mapping"][:2]  # lists are replaced whole
    edited = model_of("maya")(**edited_values)
    overrides = extract_overrides(defaults, edited)
    assert json.loads(json.dumps(overrides)) == {
        "load": {"colors": {"model": [1, 2, 3, 0.5]}},
        "ext_mapping": [{"name": "model", "value": "ma"}, {"name": "mayaScene", "value": "ma"}],
    }
    assert apply_overrides(defaults, json.loads(json.dumps(overrides))).dict() == edited.dict()


# --- houdini ----------------------------------------------------------------------------------------------------


def test_houdini_defaults_and_two_layers():
    defaults = defaults_of("houdini")
    values = defaults.dict()
    assert values["general"]["add_self_publish_button"] is False
    houdini_var = values["general"]["update_houdini_var_context"]["houdini_vars"][0]
    assert (houdini_var["var"], houdini_var["is_directory"]) == ("JOB", True)

    studio = {"general": {"add_self_publish_button": True}}
    studio_settings = apply_overrides(defaults, studio)
    project_values = studio_settings.dict()
    project_values["general"]["update_houdini_var_context"]["enabled"] = False
    project = extract_overrides(studio_settings, model_of("houdini")(**project_values))
    assert project == {"general": {"update_houdini_var_context": {"enabled": False}}}
    final = apply_overrides(studio_settings, project).dict()
    assert final["general"]["add_self_publish_button"] is True
    assert final["general"]["update_houdini_var_context"]["enabled"] is False

    # a value already overridden stays in the layer even when set back to the inherited one
    kept = extract_overrides(studio_settings, studio_settings, existing=project)
    assert kept == {"general": {"update_houdini_var_context": {"enabled": True}}}


# --- deadline ---------------------------------------------------------------------------------------------------


def test_deadline_defaults_scope_and_server_enum():
    values = defaults_of("deadline").dict()
    assert values["deadline_urls"][0]["value"] == "http://127.0.0.1:8082"
    assert values["deadline_server"] == "default"

    schema = studio_schema("deadline")
    server = schema["properties"]["deadline_server"]
    assert server["enum"] == ["default"]
    assert (server["scope"], server["section"]) == (["project", "site"], "---")
    assert schema["properties"]["deadline_urls"]["scope"] == ["studio"]

    # without an addon in the context the resolver gets None and answers nothing, as in AYON
    assert schema_of(model_of("deadline"))["properties"]["deadline_server"]["enum"] == []


def test_deadline_site_settings_model():
    site_model = site_model_of("deadline")
    assert site_model().dict() == {"local_settings": []}
    filled = site_model(local_settings=[{"server_name": "default", "username": "ana"}]).dict()
    assert filled["local_settings"][0] == {"server_name": "default", "username": "ana", "password": ""}

    schema = schema_of(site_model, addon=StubServerAddon(defaults_of("deadline")), settings_variant="production")
    server_name = schema["definitions"]["CredentialPerServerModel"]["properties"]["server_name"]
    assert server_name["enum"] == ["default"]
    assert schema["definitions"]["CredentialPerServerModel"]["layout"] == "expanded"


def test_deadline_list_overrides_of_a_project_layer():
    defaults = defaults_of("deadline")
    project = {"deadline_server": "farm"}
    settings = apply_overrides(defaults, project)
    listed = list_overrides(settings, project, level="project")
    assert listed == {
        "root_deadline_server": {
            "path": ["deadline_server"],
            "value": "farm",
            "level": "project",
            "inGroup": None,
            "scope": ["project", "site"],
        }
    }


# --- blender ----------------------------------------------------------------------------------------------------


def test_blender_defaults_and_task_type_enum():
    values = defaults_of("blender").dict()
    assert values["unit_scale_settings"] == {"enabled": True, "apply_on_opening": False, "base_file_unit_scale": 1.0}
    assert values["hooks"]["install_pyside"] is True
    assert values["include_handles"]["include_handles_default"] is False

    schema = studio_schema("blender")
    task_types = schema["definitions"]["IncludeHandlesProfilesModel"]["properties"]["task_types"]
    assert task_types["items"] == {"type": "string", "enum": DEFAULT_TASK_TYPES}
    assert task_types["uniqueItems"] is True
    unit_scale = property_at(schema, "unit_scale_settings", "base_file_unit_scale")
    assert unit_scale["default"] == 1.0 and unit_scale["disabled"] is False
