"""Actions of the real addons: applications' launch actions, core's project action, and action config."""

import pytest

from sidecar_client import TASK_ID, WORKFILE_ID, SidecarError, admin_user, artist_user

APPLICATIONS = {"name": "applications", "version": "1.4.4"}
CORE = {"name": "core", "version": "1.9.7"}
TASK_CONTEXT = {"projectName": "demo", "entityType": "task", "entityIds": [TASK_ID], "entitySubtypes": ["Compositing"]}


def by_identifier(actions: list[dict]) -> dict[str, dict]:
    return {action["identifier"]: action for action in actions}


def test_applications_lists_a_launch_action_per_app_and_task_type(host):
    actions = host.call("simpleActions", {**APPLICATIONS, "projectName": "demo", "variant": "production"})
    launches = [action for action in actions if action["identifier"].startswith("application.launch.")]
    # the default profile allows every application for every task type of the project
    assert {tuple(action["entitySubtypes"]) for action in launches} == {("Compositing",), ("Animation",)}
    nuke = [action for action in launches if action["identifier"] == "application.launch.nuke/15-0"]
    assert sorted(action["entitySubtypes"][0] for action in nuke) == ["Animation", "Compositing"]
    action = nuke[0]
    assert action["entityType"] == "task"
    assert action["category"] == "Applications"
    assert action["allowMultiselection"] is False
    assert action["icon"] == {"type": "url", "url": "/api{addon_url}/icons/nuke.png", "name": None, "color": None}
    assert (action["addonName"], action["addonVersion"], action["variant"]) == ("applications", "1.4.4", "production")
    assert action["configFields"] == [
        {"type": "boolean", "name": "skip_last_workfile", "value": False, "label": "Skip last workfile"}
    ]
    assert by_identifier(actions)["application.debug_terminal"]["label"] == "Terminal"


def test_applications_actions_follow_the_project_settings(host, studio):
    key = ("applications", "1.4.4", "production", "demo")
    studio.overrides[key] = {"project_applications": {"profiles": [
        {"task_types": ["Compositing"], "allow_type": "applications", "applications": ["nuke/15-0", "nuke/14-0"]},
    ]}}  # fmt: skip
    try:
        actions = host.call("simpleActions", {**APPLICATIONS, "projectName": "demo", "variant": "production"})
    finally:
        del studio.overrides[key]
    launches = {(a["identifier"], tuple(a["entitySubtypes"])) for a in actions if a["entitySubtypes"]}
    assert launches == {("application.launch.nuke/15-0", ("Compositing",)),
                        ("application.launch.nuke/14-0", ("Compositing",))}  # fmt: skip


def test_no_project_no_application_actions(host):
    assert host.call("simpleActions", {**APPLICATIONS, "projectName": None, "variant": "production"}) == []


def test_executing_a_launch_action_calls_back_the_launcher(host, studio):
    before = len(studio.launcher_calls)
    answer = host.call("executeAction", {**APPLICATIONS, "identifier": "application.launch.nuke/15-0",
                                         "context": TASK_CONTEXT, "variant": "production",
                                         "user": artist_user(projects=("demo",)),
                                         "serverUrl": "http://localhost"})  # fmt: skip
    (call,) = studio.launcher_calls[before:]
    args = call["args"]
    assert args[:3] == ["addon", "applications", "launch-by-id"]
    assert args[args.index("--app") + 1] == "nuke/15-0"
    assert args[args.index("--project") + 1] == "demo"
    assert args[args.index("--task-id") + 1] == TASK_ID
    assert answer["type"] == "launcher" and answer["success"] is True
    assert answer["payload"]["uri"].startswith("ayon-launcher://action?server_url=")
    assert answer["uri"] == answer["payload"]["uri"]


def test_action_config_is_stored_under_the_addons_hash_and_used_at_launch(host, studio):
    user = artist_user("ann", projects=("demo",))
    params = {**APPLICATIONS, "identifier": "application.launch.nuke/15-0", "context": TASK_CONTEXT,
              "variant": "production", "user": user}  # fmt: skip
    assert host.call("actionConfig", {**params, "config": None}) == {}
    assert host.call("actionConfig", {**params, "config": {"skip_last_workfile": True}}) == {
        "skip_last_workfile": True
    }
    assert host.call("actionConfig", {**params, "config": None}) == {"skip_last_workfile": True}
    # applications keys its config by user, app and task: another user has none
    other = {**params, "user": artist_user("bob", projects=("demo",))}
    assert host.call("actionConfig", {**other, "config": None}) == {}

    before = len(studio.launcher_calls)
    host.call("executeAction", {**params, "serverUrl": "http://localhost"})
    args = studio.launcher_calls[before]["args"]
    assert args[args.index("--use-last-workfile") + 1] == "0"


def test_an_unknown_application_action_answers_a_failed_simple_response(host):
    answer = host.call("executeAction", {**APPLICATIONS, "identifier": "something.else", "context": TASK_CONTEXT,
                                         "variant": "production", "user": admin_user()})  # fmt: skip
    assert answer["type"] == "simple"
    assert answer["success"] is False


def test_dynamic_actions_for_a_workfile_use_its_host_and_task(host):
    context = {"projectName": "demo", "entityType": "workfile", "entityIds": [WORKFILE_ID]}
    actions = host.call("dynamicActions", {**APPLICATIONS, "context": context, "variant": "production"})
    identifiers = {action["identifier"] for action in actions}
    assert "application.launch-workfile.nuke/15-0" in identifiers
    # only applications whose host is the workfile's ("nuke": Nuke, NukeX, Nuke Studio, ...)
    assert all(identifier.startswith("application.launch-workfile.nuke") for identifier in identifiers)
    assert not any("maya" in identifier for identifier in identifiers)
    assert all(action["addonName"] == "applications" for action in actions)
    assert host.call("dynamicActions", {**APPLICATIONS, "context": {"projectName": "demo", "entityType": "task",
                                                                     "entityIds": [TASK_ID]}}) == []  # fmt: skip


def test_core_offers_and_runs_create_project_structure(host, studio):
    actions = host.call("simpleActions", {**CORE, "projectName": "demo", "variant": "production"})
    assert [action["identifier"] for action in actions] == ["core.createprojectstructure"]
    assert actions[0]["entityType"] == "project"

    before = len(studio.launcher_calls)
    host.call("executeAction", {**CORE, "identifier": "core.createprojectstructure", "variant": "production",
                                "context": {"projectName": "demo", "entityType": "project"},
                                "user": admin_user()})  # fmt: skip
    assert studio.launcher_calls[before]["args"] == ["create-project-structure", "--project", "demo"]


def test_execute_action_without_a_user_is_refused(host):
    with pytest.raises(SidecarError) as failure:
        host.call("executeAction", {**CORE, "identifier": "core.createprojectstructure", "context": {}})
    assert failure.value.status == 400


def test_an_invalid_action_context_answers_400(host):
    with pytest.raises(SidecarError) as failure:
        host.call("dynamicActions", {**APPLICATIONS, "context": {"projectName": "demo", "entityType": "shot"}})
    assert failure.value.status == 400
    assert failure.value.detail == "Invalid action context"
    assert failure.value.error["errors"][0]["loc"] == ["entityType"]
