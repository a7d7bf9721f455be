"""The protocol itself: hello, errors, frames kept clean, origins, shutdown, and the extract command."""

import json
import subprocess
import sys
import threading

import pytest

from sidecar_client import Sidecar, SidecarError, admin_user, host_environment
from test_host_load import write_package


def test_hello_names_the_versions(host):
    assert host.call("hello") == {"python": "3.11.2", "pydantic": "1.10.4", "ayonServer": "1.11.3"}


def test_an_unknown_method_answers_an_error(host):
    with pytest.raises(SidecarError) as failure:
        host.call("frobnicate", {"name": "core", "version": "1.9.7"})
    assert failure.value.status == 400
    assert failure.value.detail == "Unknown method frobnicate"


def test_a_method_without_its_addon_answers_an_error(host):
    with pytest.raises(SidecarError) as failure:
        host.call("defaults", {})
    assert failure.value.status == 400
    with pytest.raises(SidecarError) as missing:
        host.call("defaults", {"name": "core", "version": "0.0.1"})
    assert missing.value.status == 404


PRINTING_ADDON = """
    import os, subprocess, sys
    from ayon_server.addons import BaseServerAddon
    print("printed at import")
    sys.stdout.write("\\x00\\x00\\x00\\x05hello")  # bytes shaped like a frame header

    class Noisy(BaseServerAddon):
        def initialize(self):
            print("printed in initialize")
            self.add_endpoint("shout", self.shout, method="GET")

        async def shout(self, word: str = "hey"):
            print("printed in a handler", word)
            os.write(1, b"written to file descriptor 1\\n")
            subprocess.run(["echo", "a child process writing to its stdout"], check=True)
            return {"word": word.upper()}
"""


def test_print_in_addon_code_does_not_corrupt_frames(tmp_path):
    sidecar = Sidecar()
    try:
        directory = write_package(tmp_path, "noisy", "1.0.0", PRINTING_ADDON)
        sidecar.call("load", {"name": "noisy", "version": "1.0.0", "directory": str(directory)})
        answer = sidecar.call("endpoint", {
            "name": "noisy", "version": "1.0.0", "method": "GET", "path": "shout", "pathParams": {},
            "query": {"word": ["boo"]}, "headers": {}, "body": None, "user": admin_user(),
        })  # fmt: skip
        assert answer == {"status": 200, "headers": {}, "json": {"word": "BOO"}}
        assert sidecar.call("hello")["ayonServer"] == "1.11.3"
    finally:
        assert sidecar.close() == 0
    assert sidecar.stray_bytes == []
    log = "\n".join(sidecar.log_lines)
    for text in ("printed at import", "printed in initialize", "printed in a handler boo",
                 "written to file descriptor 1", "a child process writing to its stdout"):  # fmt: skip
        assert text in log


def test_callbacks_name_their_origin_and_concurrent_requests_are_served(loaded, studio):
    sidecar, _ = loaded
    before = len(sidecar.callback_log)
    results: dict[str, object] = {}

    def ask(project: str) -> None:
        results[project] = sidecar.call("simpleActions", {"name": "applications", "version": "1.4.4",
                                                          "projectName": project, "variant": "production"})  # fmt: skip

    studio.projects["other"] = {**studio.projects["demo"], "name": "other", "taskTypes": [{"name": "Animation"}]}
    try:
        threads = [threading.Thread(target=ask, args=(name,)) for name in ("demo", "other")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        del studio.projects["other"]
    subtypes = {project: {tuple(a["entitySubtypes"] or ()) for a in actions} for project, actions in results.items()}
    assert subtypes["demo"] == {(), ("Compositing",), ("Animation",)}
    assert subtypes["other"] == {(), ("Animation",)}
    calls = sidecar.callback_log[before:]
    assert {method for method, _, _ in calls} >= {"project", "settings"}
    assert all(origin is not None for _, _, origin in calls)
    assert sidecar.bad_origins == []


def test_a_callback_error_reaches_addon_code_as_its_exception(host):
    # a project the server does not know: ProjectEntity.load raises NotFoundException in the addon
    with pytest.raises(SidecarError) as failure:
        host.call("simpleActions", {"name": "applications", "version": "1.4.4", "projectName": "nowhere"})
    assert failure.value.status == 404
    assert failure.value.detail == "Project nowhere not found"


def test_the_sidecar_exits_cleanly_when_stdin_closes():
    sidecar = Sidecar()
    assert sidecar.call("hello")["python"].startswith("3.")
    assert sidecar.close(timeout=10) == 0


def test_extract_prints_one_json_document(addons_dir):
    directory = addons_dir / "deadline" / "0.7.3"
    result = subprocess.run([sys.executable, "-m", "pipewright_ayon_host", "extract", str(directory)],
                            capture_output=True, env=host_environment(), timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr.decode()
    document = json.loads(result.stdout)
    assert set(document) == {"description", "schema", "defaults", "siteSchema", "siteDefaults"}
    assert document["description"]["name"] == "deadline"
    assert document["schema"]["title"] == "Deadline 0.7.3"
    assert document["defaults"]["deadline_urls"][0]["name"] == "default"
    # the site model's server names come from the studio settings: here, the defaults
    site_server = document["siteSchema"]["definitions"]["CredentialPerServerModel"]["properties"]["server_name"]
    assert site_server["enum"] == ["default"]
    assert document["siteDefaults"] == {"local_settings": []}


def test_extract_of_a_broken_package_prints_the_error(tmp_path):
    directory = write_package(tmp_path, "broken", "1.0.0", "raise ImportError('no module named shotgun_api3')\n")
    result = subprocess.run([sys.executable, "-m", "pipewright_ayon_host", "extract", str(directory)],
                            capture_output=True, env=host_environment(), timeout=60)  # fmt: skip
    assert result.returncode == 1
    error = json.loads(result.stdout)["error"]
    assert error["detail"] == "Addon broken 1.0.0 failed to load: ImportError: no module named shotgun_api3"
