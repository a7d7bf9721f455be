"""Settings methods on the real addons: schema, defaults, stack, extract, overrides, pin, site settings, convert."""

import copy

import pytest

from sidecar_client import SidecarError

CORE = {"name": "core", "version": "1.9.7"}
DEADLINE = {"name": "deadline", "version": "0.7.3"}


def definition(schema: dict, name: str) -> dict:
    return schema["definitions"][name]["properties"]


def test_core_schema_is_post_processed_for_the_project(host):
    schema = host.call("schema", {**CORE, "context": {"projectName": "demo", "variant": "production",
                                                       "userName": "admin", "siteId": None}})  # fmt: skip
    assert schema["title"] == "Core 1.9.7"
    assert schema["properties"]["studio_name"]["scope"] == ["studio"]
    # task types and version statuses come from the project's anatomy (the `anatomy` callback)
    task_types = definition(schema, "VersionStartCategoryProfileModel")["task_types"]
    assert task_types["items"]["enum"] == ["Compositing", "Animation"]
    assert definition(schema, "CollectStatusProfile")["default_status"]["enum"] == ["In progress", "Approved"]


def test_core_defaults_stack_and_extract_round_trip(host):
    defaults = host.call("defaults", CORE)
    assert defaults["studio_name"] == ""
    assert defaults["imageio"]["file_rules"]["rules"][0]["name"] == "example"

    stages = host.call("stack", {**CORE, "layers": [{"studio_name": "Pipewright Studio"}, {"studio_code": "pw"}]})
    assert len(stages) == 3
    assert stages[0] == defaults
    assert (stages[1]["studio_name"], stages[1]["studio_code"]) == ("Pipewright Studio", "")
    assert (stages[2]["studio_name"], stages[2]["studio_code"]) == ("Pipewright Studio", "pw")

    # the studio level saves an edited copy of its settings: only what differs is stored
    payload = copy.deepcopy(defaults)
    payload["studio_name"] = "Pipewright Studio"
    payload["imageio"]["file_rules"]["rules"].append({"name": "plates", "pattern": ".*plate.*",
                                                      "colorspace": "ACES - ACEScg", "ext": "exr"})  # fmt: skip
    stored = host.call("extract", {**CORE, "layers": [], "own": {}, "payload": payload, "pins": [], "unpins": []})
    assert stored == {
        "studio_name": "Pipewright Studio",
        "imageio": {"file_rules": {"rules": payload["imageio"]["file_rules"]["rules"]}},
    }
    assert host.call("stack", {**CORE, "layers": [stored]})[-1] == payload

    # what was overridden stays overridden; pins add, unpins remove
    again = host.call("extract", {**CORE, "layers": [], "own": stored, "payload": payload, "pins": [["studio_code"]],
                                  "unpins": [["imageio", "file_rules", "rules"]]})  # fmt: skip
    assert again == {"studio_name": "Pipewright Studio", "studio_code": ""}

    # a project level inherits the studio layer: the same payload stores nothing there
    assert host.call("extract", {**CORE, "layers": [stored], "own": {}, "payload": payload}) == {}


def test_a_validator_refusing_the_payload_answers_its_400(host):
    payload = host.call("defaults", CORE)
    rule = {"name": "x", "pattern": ".*", "colorspace": "", "ext": ""}
    payload["imageio"]["file_rules"]["rules"] = [rule, dict(rule)]
    with pytest.raises(SidecarError) as failure:
        host.call("extract", {**CORE, "layers": [], "own": {}, "payload": payload})
    assert failure.value.status == 400
    assert failure.value.detail == "Duplicate name 'x'"


def test_a_payload_of_the_wrong_shape_answers_invalid_settings(host):
    with pytest.raises(SidecarError) as failure:
        payload = {"version_start_category": {"profiles": [{"version_start": -3}]}}
        host.call("extract", {**CORE, "layers": [], "own": {}, "payload": payload})
    assert failure.value.status == 400
    assert failure.value.detail == "Invalid settings"
    (error,) = failure.value.error["errors"]
    assert error["loc"] == ["version_start_category", "profiles", 0, "version_start"]
    assert error["type"] == "value_error.number.not_ge"
    assert error["msg"]


def test_override_map_lists_each_level(host):
    result = host.call("overrides", {**CORE, "layers": [
        {"level": "studio", "data": {"studio_name": "S", "studio_code": "s"}},
        {"level": "project", "data": {"studio_code": "p"}},
    ]})  # fmt: skip
    assert result["root_studio_name"] == {"path": ["studio_name"], "value": "S", "level": "studio",
                                          "inGroup": None, "scope": ["studio"]}  # fmt: skip
    assert result["root_studio_code"]["level"] == "project"
    assert result["root_studio_code"]["value"] == "p"
    assert "root_environments" not in result


def test_pin_stores_the_current_value(host):
    defaults = host.call("defaults", CORE)
    own = host.call("pin", {**CORE, "layers": [{"studio_name": "S"}], "own": {},
                            "path": ["imageio", "file_rules", "rules"]})  # fmt: skip
    assert own == {"imageio": {"file_rules": {"rules": defaults["imageio"]["file_rules"]["rules"]}}}
    with pytest.raises(SidecarError) as failure:
        host.call("pin", {**CORE, "layers": [], "own": {}, "path": ["imageio", "no_such_setting"]})
    assert failure.value.status == 400


def test_convert_core_overrides_from_an_older_version(host):
    old = {
        "version_start_category": {"profiles": [
            {"hosts": ["nuke"], "tasks": ["comp"], "task_types": ["Compositing"], "version_start": 2},
        ]},
        "removed_long_ago": {"anything": True},
        "studio_name": "Old Studio",
    }  # fmt: skip
    converted = host.call("convert", {**CORE, "fromVersion": "1.5.0", "overrides": old, "projectName": None})
    assert converted == {
        "version_start_category": {"profiles": [
            {"host_names": ["nuke"], "task_names": ["comp"], "task_types": ["Compositing"], "version_start": 2},
        ]},
        "studio_name": "Old Studio",
    }  # fmt: skip


def test_deadline_site_settings_read_the_studio_servers_through_the_settings_callback(host, studio):
    key = ("deadline", "0.7.3", "production", None)
    studio.overrides[key] = {"deadline_urls": [
        {"name": "default", "value": "http://127.0.0.1:8082"},
        {"name": "farm", "value": "http://farm:8082"},
    ]}  # fmt: skip
    try:
        schema = host.call("schema", {**DEADLINE, "site": True,
                                      "context": {"variant": "production", "userName": "artist"}})  # fmt: skip
        project = host.call("schema", {**DEADLINE, "context": {"projectName": "demo", "variant": "production"}})
    finally:
        del studio.overrides[key]
    assert schema["title"] == "Deadline 0.7.3"
    assert definition(schema, "CredentialPerServerModel")["server_name"]["enum"] == ["default", "farm"]
    assert project["properties"]["deadline_server"]["enum"] == ["default", "farm"]

    assert host.call("defaults", {**DEADLINE, "site": True}) == {"local_settings": []}
    site = host.call("siteSettings", {**DEADLINE, "data": {"local_settings": [{"server_name": "farm",
                                                                                 "username": "me"}]}})  # fmt: skip
    assert site == {"local_settings": [{"server_name": "farm", "username": "me", "password": ""}]}
    with pytest.raises(SidecarError) as failure:
        host.call("siteSettings", {**DEADLINE, "data": {"local_settings": "not a list"}})
    assert failure.value.status == 400
    assert failure.value.detail == "Invalid settings"
    assert failure.value.error["errors"][0]["loc"] == ["local_settings"]


def test_addons_without_site_settings_answer_null(host):
    assert host.call("schema", {**CORE, "site": True, "context": {}}) is None
    assert host.call("defaults", {**CORE, "site": True}) is None
