"""A test stand-in for the Pipewright server: starts the real sidecar, speaks its protocol, and answers its
callbacks from a small in-memory studio (`FakeStudio`)."""

import concurrent.futures
import copy
import itertools
import json
import os
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

PYTHON_DIR = Path(__file__).resolve().parent.parent
HOST_PYTHONPATH = os.pathsep.join([str(PYTHON_DIR), str(PYTHON_DIR / "shims")])
_HEADER = struct.Struct(">I")


def host_environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": HOST_PYTHONPATH, "PYTHONDONTWRITEBYTECODE": "1"}


class SidecarError(Exception):
    def __init__(self, method: str, error: dict[str, Any]) -> None:
        super().__init__(f"{method}: {error.get('status')} {error.get('detail')}")
        self.error = error
        self.status = error.get("status")
        self.detail = error.get("detail")


class Sidecar:
    """The sidecar process, called as the server calls it. `callbacks` maps a callback method to a function
    (params, origin) -> result; raising SidecarError(…, {"status", "detail"}) answers an error."""

    def __init__(self, callbacks: dict[str, Callable[[dict[str, Any], int], Any]] | None = None) -> None:
        self.callbacks = callbacks or {}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pipewright_ayon_host"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=host_environment(),
        )
        self._ids = itertools.count(1)
        self._write_lock = threading.Lock()
        self._waiting: dict[int, concurrent.futures.Future] = {}
        self.pending: set[int] = set()  # ids of our requests not answered yet (valid callback origins)
        self.callback_log: list[tuple[str, dict[str, Any], int | None]] = []
        self.bad_origins: list[dict[str, Any]] = []
        self.stray_bytes: list[str] = []
        self.log_lines: list[str] = []
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=16)
        self._reader = threading.Thread(target=self._read_frames, daemon=True)
        self._reader.start()
        self._stderr = threading.Thread(target=self._read_log, daemon=True)
        self._stderr.start()

    # --- frames -------------------------------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode("utf-8")
        with self._write_lock:
            self.process.stdin.write(_HEADER.pack(len(data)) + data)
            self.process.stdin.flush()

    def _read_exactly(self, size: int) -> bytes | None:
        data = b""
        while len(data) < size:
            chunk = self.process.stdout.read(size - len(data))
            if not chunk:
                return None
            data += chunk
        return data

    def _read_frames(self) -> None:
        while (header := self._read_exactly(_HEADER.size)) is not None:
            (length,) = _HEADER.unpack(header)
            if length > 2**26:  # no answer is that big: these bytes are not a frame header
                self.stray_bytes.append(repr(header))
                break
            body = self._read_exactly(length)
            if body is None:
                self.stray_bytes.append(f"truncated frame of {length} bytes")
                break
            try:
                message = json.loads(body)
            except ValueError:
                # a frame that is not JSON: something wrote to stdout besides the frame writer
                self.stray_bytes.append(repr(header + body[:200]))
                break
            self._receive(message)
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ConnectionError("sidecar closed stdout"))

    def _read_log(self) -> None:
        for line in self.process.stderr:
            self.log_lines.append(line.decode("utf-8", errors="replace").rstrip("\n"))

    def _receive(self, message: dict[str, Any]) -> None:
        if "method" in message:
            self._pool.submit(self._answer_callback, message)
            return
        future = self._waiting.pop(message["id"], None)
        self.pending.discard(message["id"])
        if future is not None:
            future.set_result(message)

    def _answer_callback(self, message: dict[str, Any]) -> None:
        method, params, origin = message["method"], message.get("params") or {}, message.get("origin")
        self.callback_log.append((method, params, origin))
        if origin not in self.pending:  # the server refuses callbacks for requests it is not waiting on
            self.bad_origins.append(message)
            self.send({"id": message["id"], "error": {"status": 403, "detail": "Unknown origin"}})
            return
        handler = self.callbacks.get(method)
        try:
            if handler is None:
                raise SidecarError(method, {"status": 501, "detail": f"No callback {method} in this test"})
            answer = {"id": message["id"], "result": handler(params, origin)}
        except SidecarError as error:
            answer = {"id": message["id"], "error": error.error}
        except Exception as error:  # a bug in the test's fake: tell the sidecar, and keep it for the test
            answer = {"id": message["id"], "error": {"status": 500, "detail": f"test callback failed: {error!r}"}}
        self.send(answer)

    # --- requests -----------------------------------------------------------------------------------------------

    def request(self, method: str, params: dict[str, Any] | None = None, timeout: float = 60) -> dict[str, Any]:
        """The raw response message of one request."""
        request_id = next(self._ids)
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._waiting[request_id] = future
        self.pending.add(request_id)
        self.send({"id": request_id, "method": method, "params": params or {}})
        return future.result(timeout=timeout)

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float = 60) -> Any:
        response = self.request(method, params, timeout)
        if "error" in response:
            raise SidecarError(method, response["error"])
        return response["result"]

    def close(self, timeout: float = 10) -> int:
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        self._reader.join(timeout)
        self._stderr.join(timeout)
        self._pool.shutdown(wait=False)
        return code


# --- a studio to answer callbacks from ------------------------------------------------------------------------------

TASK_TYPES = [
    {"name": "Compositing", "shortName": "comp", "icon": "layers", "color": "#612BA3"},
    {"name": "Animation", "shortName": "anim", "icon": "directions_run", "color": "#3599F1"},
]
STATUSES = [
    {"name": "In progress", "shortName": "PRG", "state": "in_progress", "scope": ["version", "task"]},
    {"name": "Approved", "shortName": "APP", "state": "done", "scope": ["version"]},
    {"name": "Omitted", "shortName": "OMT", "state": "blocked", "scope": ["task"]},
]
TASK_ID = "a" * 32
WORKFILE_ID = "b" * 32


class FakeStudio:
    """Projects, entities, stored overrides and the records a test inspects (events, launcher calls, configs).
    Settings are answered as the real server does: by calling the sidecar's `stack` with the stored layers."""

    def __init__(self) -> None:
        self.sidecar: Sidecar | None = None
        self.projects = {
            "demo": {
                "name": "demo", "code": "dm", "library": False, "active": True,
                "folderTypes": [{"name": "Shot"}], "taskTypes": copy.deepcopy(TASK_TYPES),
                "linkTypes": [], "statuses": copy.deepcopy(STATUSES), "tags": [],
                "attrib": {"fps": 25.0}, "data": {}, "config": {}, "ownAttrib": [],
                "createdAt": "2025-01-01T00:00:00+00:00", "updatedAt": "2025-01-01T00:00:00+00:00",
            },
        }  # fmt: skip
        self.entities = {
            ("demo", "task", TASK_ID): {"id": TASK_ID, "name": "comp", "taskType": "Compositing",
                                        "folderId": "c" * 32, "attrib": {}, "data": {}, "active": True},
            ("demo", "workfile", WORKFILE_ID): {"id": WORKFILE_ID, "path": "{root[work]}/demo/sh010/comp.nk",
                                                "taskId": TASK_ID, "attrib": {}, "data": {"host_name": "nuke"}},
        }  # fmt: skip
        self.overrides: dict[tuple, dict[str, Any]] = {}  # (addon, version, variant, project or None) -> layer
        self.bundles: dict[str, Any] = {"production": {}, "staging": {}, "dev": {}}
        self.launcher_calls: list[dict[str, Any]] = []
        self.action_configs: dict[str, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []

    def callbacks(self) -> dict[str, Callable[[dict[str, Any], int], Any]]:
        return {
            "settings": self.settings,
            "anatomy": self.anatomy,
            "project": self.project,
            "projects": lambda params, origin: [
                {key: project[key] for key in ("name", "code", "active", "library", "createdAt")}
                for project in self.projects.values()
            ],
            "entity": self.entity,
            "bundles": lambda params, origin: self.bundles,
            "launcher": self.launcher,
            "actionConfig": self.action_config,
            "dispatchEvent": self.dispatch_event,
            "secrets": lambda params, origin: [],
            "secret": lambda params, origin: None,
        }

    def settings(self, params: dict[str, Any], origin: int) -> dict[str, Any]:
        key = (params["addonName"], params["addonVersion"], params["variant"])
        layers = [self.overrides.get((*key, None), {})]
        if params.get("projectName"):
            layers.append(self.overrides.get((*key, params["projectName"]), {}))
        return self.sidecar.call("stack", {"name": key[0], "version": key[1], "layers": layers})[-1]

    def anatomy(self, params: dict[str, Any], origin: int) -> dict[str, Any]:
        project = self._project(params.get("projectName")) if params.get("projectName") else None
        task_types = project["taskTypes"] if project else TASK_TYPES
        statuses = project["statuses"] if project else STATUSES
        return {"task_types": copy.deepcopy(task_types), "statuses": copy.deepcopy(statuses)}

    def _project(self, name: str) -> dict[str, Any]:
        if name not in self.projects:
            raise SidecarError("project", {"status": 404, "detail": f"Project {name} not found"})
        return self.projects[name]

    def project(self, params: dict[str, Any], origin: int) -> dict[str, Any]:
        return copy.deepcopy(self._project(params["projectName"]))

    def entity(self, params: dict[str, Any], origin: int) -> dict[str, Any]:
        key = (params["projectName"], params["entityType"], params["entityId"])
        if key not in self.entities:
            raise SidecarError("entity", {"status": 404, "detail": f"{params['entityType']} not found"})
        return copy.deepcopy(self.entities[key])

    def launcher(self, params: dict[str, Any], origin: int) -> dict[str, Any]:
        self.launcher_calls.append({**params, "origin": origin})
        token = f"token{len(self.launcher_calls)}"
        uri = f"ayon-launcher://action?server_url=http%3A%2F%2Flocalhost&token={token}"
        return {"type": "launcher", "success": True, "message": params.get("message"), "payload": {"uri": uri}}

    def action_config(self, params: dict[str, Any], origin: int) -> dict[str, Any] | None:
        if params.get("config") is None:
            return copy.deepcopy(self.action_configs.get(params["hash"], {}))
        if params["config"]:
            self.action_configs[params["hash"]] = copy.deepcopy(params["config"])
        else:
            self.action_configs.pop(params["hash"], None)
        return None

    def dispatch_event(self, params: dict[str, Any], origin: int) -> dict[str, Any]:
        self.events.append(params)
        return {"id": f"{len(self.events):032x}"}


def admin_user(name: str = "admin") -> dict[str, Any]:
    return {"name": name, "isAdmin": True, "isManager": True, "isService": False, "isGuest": False,
            "accessGroups": {}, "attrib": {}}  # fmt: skip


def artist_user(name: str = "artist", projects: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"name": name, "isAdmin": False, "isManager": False, "isService": False, "isGuest": False,
            "accessGroups": {project: ["artist"] for project in projects}, "attrib": {}}  # fmt: skip
