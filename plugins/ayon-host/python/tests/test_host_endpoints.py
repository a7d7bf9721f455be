"""Endpoints of the real applications addon, called as the server forwards requests, and the binder's rules."""

import base64
import shutil

import pytest

from conftest import addon_params
from sidecar_client import TASK_ID, FakeStudio, Sidecar, SidecarError, admin_user, artist_user
from test_host_load import write_package

APPLICATIONS = {"name": "applications", "version": "1.4.4"}


def request(method: str, path: str, *, path_params=None, query=None, body: bytes | None = None, user=None,
            headers=None) -> dict:  # fmt: skip
    return {
        "method": method,
        "path": path,
        "pathParams": path_params or {},
        "query": query or {},
        "headers": headers or {},
        "body": base64.b64encode(body).decode() if body is not None else None,
        "user": user if user is not None else admin_user(),
    }


@pytest.fixture
def production_bundle(studio: FakeStudio):
    studio.bundles["production"] = {"core": "1.9.7", "applications": "1.4.4"}
    yield
    studio.bundles["production"] = {}


def test_get_apps_answers_json(host, production_bundle):
    answer = host.call("endpoint", {**APPLICATIONS, **request("GET", "apps")})
    assert answer["status"] == 200
    applications = answer["json"]["applications"]
    maya = next(item for item in applications if item["full_name"] == "maya/2026")
    assert maya == {
        "host_name": "maya",
        "full_name": "maya/2026",
        "full_label": "Maya 2026",
        "group_label": "Maya",
        "variant_label": "2026",
        "icon": {"type": "url", "url": "/api/addons/applications/1.4.4/icons/maya.png"},
        "show_grouped": True,
    }


def test_get_apps_reads_the_studio_bundle(host):
    # no production bundle names applications: AYON answers an empty list
    assert host.call("endpoint", {**APPLICATIONS, **request("GET", "apps")})["json"] == {"applications": []}


def test_query_parameters_and_path_parameters_are_bound(host, production_bundle):
    staging = host.call("endpoint", {**APPLICATIONS, **request("GET", "apps/{project_name}", path_params={
        "project_name": "demo"}, query={"variant": ["staging"]})})  # fmt: skip
    assert staging["json"] == {"applications": []}  # nothing in the staging bundle
    production = host.call("endpoint", {**APPLICATIONS, **request("GET", "apps/{project_name}", path_params={
        "project_name": "demo"})})  # fmt: skip
    assert len(production["json"]["applications"]) > 50

    tools = host.call("endpoint", {**APPLICATIONS, **request("GET", "tools")})
    assert any(tool["full_name"].startswith("mtoa/") for tool in tools["json"]["tools"])


def test_task_applications_read_the_task(host, studio, production_bundle):
    key = ("applications", "1.4.4", "production", "demo")
    studio.overrides[key] = {"project_applications": {"profiles": [
        {"task_types": ["Compositing"], "allow_type": "applications", "applications": ["nuke/15-0"]},
    ]}}  # fmt: skip
    try:
        answer = host.call("endpoint", {**APPLICATIONS, **request(
            "GET", "apps/{project_name}/task/{task_id}", path_params={"project_name": "demo", "task_id": TASK_ID})})
    finally:
        del studio.overrides[key]
    assert [item["full_name"] for item in answer["json"]["applications"]] == ["nuke/15-0"]


def test_an_icon_answers_the_file(host, addons_dir):
    answer = host.call("endpoint", {**APPLICATIONS, **request("GET", "icons/{filename}",
                                                              path_params={"filename": "maya.png"})})  # fmt: skip
    assert answer["status"] == 200
    assert answer["file"] == str(addons_dir / "applications" / "1.4.4" / "public" / "icons" / "maya.png")
    assert answer["headers"]["content-type"] == "image/png"


def test_an_http_exception_answers_its_status_and_detail(host):
    with pytest.raises(SidecarError) as failure:
        host.call("endpoint", {**APPLICATIONS, **request("GET", "icons/{filename}",
                                                         path_params={"filename": "nope.png"})})  # fmt: skip
    assert failure.value.status == 404
    assert failure.value.detail == "Icon 'nope.png' not found"


def test_an_endpoint_the_addon_does_not_declare_answers_404(host):
    with pytest.raises(SidecarError) as failure:
        host.call("endpoint", {**APPLICATIONS, **request("PATCH", "apps")})
    assert failure.value.status == 404


def test_custom_icons_upload_list_download_delete(addons_dir, tmp_path):
    """On a copy of the addon: uploads land next to the addon's version directory."""
    shutil.copytree(addons_dir / "applications" / "1.4.4", tmp_path / "applications" / "1.4.4")
    sidecar = Sidecar(FakeStudio().callbacks())
    try:
        sidecar.call("load", {**addon_params(tmp_path, "applications")})
        upload = sidecar.call("endpoint", {**APPLICATIONS, **request(
            "POST", "customIcons/{filename}", path_params={"filename": "studio.png"}, body=b"\x89PNG fake")})
        assert upload == {"status": 200, "headers": {}, "json": {"success": True}}
        assert (tmp_path / "applications" / "custom_icons" / "studio.png").read_bytes() == b"\x89PNG fake"

        listed = sidecar.call("endpoint", {**APPLICATIONS, **request("GET", "customIcons")})
        assert listed["json"] == {"icons": [{"filename": "studio.png"}]}
        served = sidecar.call("endpoint", {**APPLICATIONS, **request("GET", "icons/{filename}",
                                                                     path_params={"filename": "studio.png"})})
        assert served["file"] == str(tmp_path / "applications" / "custom_icons" / "studio.png")

        deleted = sidecar.call("endpoint", {**APPLICATIONS, **request(
            "DELETE", "customIcons/{filename}", path_params={"filename": "studio.png"})})
        assert deleted["json"] == {"success": True}
        with pytest.raises(SidecarError) as gone:
            sidecar.call("endpoint", {**APPLICATIONS, **request(
                "DELETE", "customIcons/{filename}", path_params={"filename": "studio.png"})})
        assert gone.value.status == 404
        assert gone.value.detail == {"success": False, "message": "File 'studio.png' not found"}
    finally:
        assert sidecar.close() == 0


BINDING_ADDON = """
    from typing import Annotated
    from fastapi import Body, Header, Path, Query, Request
    from fastapi.responses import Response
    from pydantic import BaseModel
    from ayon_server.addons import BaseServerAddon
    from ayon_server.api.dependencies import CurrentUser, ProjectName, RepresentationID
    from ayon_server.api.responses import EmptyResponse

    class Note(BaseModel):
        text: str
        priority: int = 1

    class Binding(BaseServerAddon):
        def initialize(self):
            self.add_endpoint("{project_name}/notes/{representation_id}", self.add_note, method="POST")
            self.add_endpoint("raw", self.raw, method="PUT")
            self.add_endpoint("search", self.search, method="GET")
            self.add_endpoint("nothing", self.nothing, method="DELETE")
            self.add_endpoint("buggy", self.buggy, method="GET")

        async def add_note(self, user: CurrentUser, project_name: ProjectName, representation_id: RepresentationID,
                           note: Note, tag: str | None = Query(None)):
            return {"user": user.name, "project": project_name, "representation": representation_id,
                    "note": note, "tag": tag}

        async def raw(self, request: Request, payload: dict, x_token: str | None = Header(None)):
            return Response(content=(await request.body())[::-1] + (x_token or "").encode(), media_type="text/plain")

        def search(self, tags: list[str] = Query([]), limit: int = Query(10), exact: bool = False):
            return {"tags": tags, "limit": limit, "exact": exact}

        async def nothing(self):
            return EmptyResponse()

        async def buggy(self):
            return Note(priority="urgent")
"""


@pytest.fixture(scope="module")
def binding_host(tmp_path_factory):
    studio = FakeStudio()
    studio.projects["Demo_Two"] = {**studio.projects["demo"], "name": "Demo_Two"}
    sidecar = Sidecar(studio.callbacks())
    studio.sidecar = sidecar
    directory = write_package(tmp_path_factory.mktemp("addons"), "binding", "1.0.0", BINDING_ADDON)
    sidecar.call("load", {"name": "binding", "version": "1.0.0", "directory": str(directory)})
    yield sidecar
    assert sidecar.close() == 0


BINDING = {"name": "binding", "version": "1.0.0"}
NOTE_PATH = "{project_name}/notes/{representation_id}"
REPRESENTATION_ID = "d" * 32


def test_dependencies_models_and_queries_are_bound(binding_host):
    answer = binding_host.call("endpoint", {**BINDING, **request(
        "POST", NOTE_PATH, path_params={"project_name": "demo_two", "representation_id": REPRESENTATION_ID},
        query={"tag": ["wip"]}, body=b'{"text": "too dark"}', user=artist_user("ann", projects=("Demo_Two",)))})
    # ProjectName answers the project's own spelling, as AYON's does
    assert answer["json"] == {"user": "ann", "project": "Demo_Two", "representation": REPRESENTATION_ID,
                              "note": {"text": "too dark", "priority": 1}, "tag": "wip"}  # fmt: skip


def test_binding_refusals_answer_as_fastapi_and_ayon_do(binding_host):
    def note(project: str, representation: str, body: bytes, user: dict) -> SidecarError:
        with pytest.raises(SidecarError) as failure:
            binding_host.call("endpoint", {**BINDING, **request("POST", NOTE_PATH, path_params={
                "project_name": project, "representation_id": representation}, body=body, user=user)})
        return failure.value

    admin = admin_user()
    assert note("demo", "not-an-id", b'{"text": "x"}', admin).status == 422
    missing_text = note("demo", REPRESENTATION_ID, b'{"priority": 2}', admin)
    assert missing_text.status == 422
    assert missing_text.error["errors"] == [{"loc": ["body", "text"], "msg": "field required",
                                             "type": "value_error.missing"}]  # fmt: skip
    assert note("nowhere", REPRESENTATION_ID, b'{"text": "x"}', admin).status == 404
    assert note("demo", REPRESENTATION_ID, b'{"text": "x"}', artist_user(projects=("Demo_Two",))).status == 403


def test_raw_requests_headers_and_responses(binding_host):
    answer = binding_host.call("endpoint", {**BINDING, **request("PUT", "raw", body=b'{"a": 1}',
                                                                 headers={"X-Token": "!"})})  # fmt: skip
    assert answer["status"] == 200
    assert answer["headers"]["content-type"] == "text/plain"
    assert base64.b64decode(answer["bodyBase64"]) == b'}1 :"a"{!'

    empty = binding_host.call("endpoint", {**BINDING, **request("DELETE", "nothing")})
    assert empty == {"status": 204, "headers": {}, "bodyBase64": ""}


def test_list_and_typed_query_values(binding_host):
    answer = binding_host.call("endpoint", {**BINDING, **request("GET", "search", query={
        "tags": ["a", "b"], "limit": ["5"], "exact": ["true"]})})  # fmt: skip
    assert answer["json"] == {"tags": ["a", "b"], "limit": 5, "exact": True}
    defaults = binding_host.call("endpoint", {**BINDING, **request("GET", "search")})
    assert defaults["json"] == {"tags": [], "limit": 10, "exact": False}
    with pytest.raises(SidecarError) as failure:
        binding_host.call("endpoint", {**BINDING, **request("GET", "search", query={"limit": ["many"]})})
    assert failure.value.status == 422
    assert failure.value.error["errors"][0]["loc"] == ["query", "limit"]


def test_a_handler_failing_on_its_own_answers_500_with_the_traceback(binding_host):
    with pytest.raises(SidecarError) as failure:
        binding_host.call("endpoint", {**BINDING, **request("GET", "buggy")})
    assert failure.value.status == 500
    assert failure.value.detail == "HandlerError: buggy built an invalid Note"
    assert 'return Note(priority="urgent")' in failure.value.error["traceback"]
