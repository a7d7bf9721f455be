"""Loading packages: the six real addons, their descriptions, and packages that fail."""

import textwrap
from pathlib import Path

import pytest

from conftest import ADDON_VERSIONS, addon_params
from sidecar_client import SidecarError


def write_package(root: Path, name: str, version: str, server_code: str) -> Path:
    directory = root / name / version
    (directory / "server").mkdir(parents=True)
    # title is an f-string: package.py must run as a module, not be parsed
    (directory / "package.py").write_text(
        f'name = "{name}"\nversion = "{version}"\ntitle = f"{{name.title()}} addon"\n'
    )
    (directory / "server" / "__init__.py").write_text(textwrap.dedent(server_code))
    return directory


def test_all_six_addons_load_with_their_descriptions(loaded):
    _, descriptions = loaded
    assert set(descriptions) == set(ADDON_VERSIONS)
    for name, description in descriptions.items():
        assert description["name"] == name
        assert description["version"] == ADDON_VERSIONS[name]
        assert description["hasSettings"] is True

    applications = descriptions["applications"]
    assert applications["title"] == "Applications"
    assert applications["clientDir"] == "ayon_applications"
    assert applications["requiredAddons"] == {"core": ">=1.4.0"}
    assert applications["ayonServerVersion"] == ">=1.3.0"
    assert len(applications["endpoints"]) == 11
    assert {(e["method"], e["path"]) for e in applications["endpoints"]} >= {
        ("GET", "apps"), ("GET", "apps/{project_name}"), ("GET", "apps/{project_name}/task/{task_id}"),
        ("GET", "icons/{filename}"), ("POST", "customIcons/{filename}"), ("DELETE", "customIcons/{filename}"),
    }  # fmt: skip
    assert applications["hasSimpleActions"] is True
    assert applications["hasDynamicActions"] is True
    assert applications["subscriptions"] == ["bundle.updated"]
    assert "lib.postgres.Postgres" in applications["unsupported"]

    core = descriptions["core"]
    assert core["hasSimpleActions"] is True and core["hasDynamicActions"] is False
    assert core["endpoints"] == [] and core["unsupported"] == []
    assert core["compatibleAddons"]["applications"] == ">=1.1.2"
    assert core["projectCanOverrideAddonVersion"] is True

    assert descriptions["deadline"]["hasSiteSettings"] is True
    assert all(not descriptions[name]["hasSiteSettings"] for name in ADDON_VERSIONS if name != "deadline")
    assert descriptions["maya"]["appHostNames"] == ["maya"]
    assert descriptions["houdini"]["appHostNames"] == ["houdini"]
    assert descriptions["blender"]["title"] == "Blender"
    assert descriptions["deadline"]["hasSimpleActions"] is False


def test_a_package_raising_at_import_answers_a_load_error_and_the_others_keep_working(host, tmp_path):
    directory = write_package(tmp_path, "broken", "1.0.0", """
        from ayon_server.addons import BaseServerAddon
        raise RuntimeError("the settings module is missing")
    """)
    with pytest.raises(SidecarError) as failure:
        host.call("load", {"name": "broken", "version": "1.0.0", "directory": str(directory)})
    assert failure.value.status == 500
    assert failure.value.detail == "Addon broken 1.0.0 failed to load: RuntimeError: the settings module is missing"
    assert "\n" not in failure.value.detail
    assert 'raise RuntimeError("the settings module is missing")' in failure.value.error["traceback"]

    # the broken package is not loaded, the real ones still answer
    with pytest.raises(SidecarError) as missing:
        host.call("defaults", {"name": "broken", "version": "1.0.0"})
    assert missing.value.status == 404
    blender = host.call("defaults", {"name": "blender", "version": "1.1.8"})
    assert blender["imageio"]["activate_host_color_management"] is True


def test_a_package_whose_initialize_raises_is_not_loaded(host, tmp_path):
    directory = write_package(tmp_path, "badinit", "2.0.0", """
        from ayon_server.addons import BaseServerAddon
        class BadInit(BaseServerAddon):
            def initialize(self):
                self.add_endpoint("ok", self.initialize)
                raise ValueError("no such endpoint handler")
    """)
    with pytest.raises(SidecarError) as failure:
        host.call("load", {"name": "badinit", "version": "2.0.0", "directory": str(directory)})
    assert failure.value.detail == "Addon badinit 2.0.0 failed to load: ValueError: no such endpoint handler"


def test_pre_setup_and_setup_run_once_loaded_and_a_failing_setup_breaks_the_addon(host, tmp_path):
    directory = write_package(tmp_path, "hooks", "1.0.0", """
        from ayon_server.addons import BaseServerAddon
        class Hooks(BaseServerAddon):
            calls = []
            def initialize(self):
                self.add_endpoint("calls", self.report, method="GET")
            def pre_setup(self):
                self.calls.append("pre_setup")
            async def setup(self):
                self.calls.append("setup")
            async def report(self):
                return self.calls
    """)
    host.call("load", {"name": "hooks", "version": "1.0.0", "directory": str(directory)})
    answer = host.call("endpoint", {"name": "hooks", "version": "1.0.0", "method": "GET", "path": "calls",
                                    "pathParams": {}, "query": {}, "headers": {}, "body": None, "user": None})  # fmt: skip
    assert answer["json"] == ["pre_setup", "setup"]

    directory = write_package(tmp_path, "badsetup", "1.0.0", """
        from ayon_server.addons import BaseServerAddon
        from ayon_server.lib.postgres import Postgres
        class BadSetup(BaseServerAddon):
            async def setup(self):
                await Postgres.execute("CREATE TABLE IF NOT EXISTS public.addon_data (key text)")
    """)
    with pytest.raises(SidecarError) as failure:
        host.call("load", {"name": "badsetup", "version": "1.0.0", "directory": str(directory)})
    assert failure.value.detail.startswith("Addon badsetup 1.0.0 failed to set up: ")
    assert "not available on Pipewright" in failure.value.detail
    with pytest.raises(SidecarError):
        host.call("defaults", {"name": "badsetup", "version": "1.0.0"})


def test_a_directory_holding_another_version_is_refused(host, addons_dir):
    params = {**addon_params(addons_dir, "blender"), "version": "9.9.9"}
    with pytest.raises(SidecarError) as failure:
        host.call("load", params)
    assert "holds blender 1.1.8, not blender 9.9.9" in failure.value.detail
    assert host.call("defaults", {"name": "blender", "version": "1.1.8"}) is not None


def test_unload_then_load_again(host, tmp_path):
    directory = write_package(tmp_path, "tiny", "0.1.0", """
        from ayon_server.addons import BaseServerAddon
        from ayon_server.settings import BaseSettingsModel, SettingsField
        class TinySettings(BaseSettingsModel):
            size: int = SettingsField(3, title="Size")
        class Tiny(BaseServerAddon):
            settings_model = TinySettings
    """)
    params = {"name": "tiny", "version": "0.1.0", "directory": str(directory)}
    description = host.call("load", params)
    assert description["title"] == "Tiny addon"  # package.py's f-string ran
    assert host.call("defaults", {"name": "tiny", "version": "0.1.0"}) == {"size": 3}
    assert host.call("unload", {"name": "tiny", "version": "0.1.0"}) is None
    with pytest.raises(SidecarError) as missing:
        host.call("defaults", {"name": "tiny", "version": "0.1.0"})
    assert missing.value.status == 404

    (directory / "server" / "__init__.py").write_text(
        (directory / "server" / "__init__.py").read_text().replace("SettingsField(3,", "SettingsField(5,")
    )
    host.call("load", params)
    assert host.call("defaults", {"name": "tiny", "version": "0.1.0"}) == {"size": 5}
