"""Fixtures: the six real AYON addons, built by scripts/build-ayon-addons.sh, and a sidecar that has them loaded."""

import subprocess
from pathlib import Path

import pytest

from sidecar_client import FakeStudio, Sidecar

REPO = Path(__file__).resolve().parents[4]
ADDON_VERSIONS = {
    "core": "1.9.7",
    "applications": "1.4.4",
    "maya": "0.6.5",
    "houdini": "0.10.6",
    "deadline": "0.7.3",
    "blender": "1.1.8",
}


@pytest.fixture(scope="session")
def addons_dir() -> Path:
    """unpacked/<name>/<version>/ of the six addons, built once (the script skips what is built)."""
    result = subprocess.run([str(REPO / "scripts" / "build-ayon-addons.sh")], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(f"building the AYON addons failed:\n{result.stderr}")
    unpacked = Path(result.stdout.strip().splitlines()[-1]) / "unpacked"
    for name, version in ADDON_VERSIONS.items():
        if not (unpacked / name / version / "package.py").is_file():
            pytest.fail(f"{name} {version} was not built into {unpacked}")
    return unpacked


def addon_params(addons_dir: Path, name: str) -> dict:
    version = ADDON_VERSIONS[name]
    return {"name": name, "version": version, "directory": str(addons_dir / name / version)}


@pytest.fixture(scope="session")
def studio() -> FakeStudio:
    return FakeStudio()


@pytest.fixture(scope="session")
def loaded(addons_dir: Path, studio: FakeStudio):
    """(sidecar, {name: description}) with the six addons loaded; shared by the tests of the session."""
    sidecar = Sidecar(studio.callbacks())
    studio.sidecar = sidecar
    descriptions = {name: sidecar.call("load", addon_params(addons_dir, name)) for name in ADDON_VERSIONS}
    yield sidecar, descriptions
    assert sidecar.close() == 0
    assert not sidecar.stray_bytes, sidecar.stray_bytes
    assert not sidecar.bad_origins, sidecar.bad_origins


@pytest.fixture
def host(loaded) -> Sidecar:
    return loaded[0]
