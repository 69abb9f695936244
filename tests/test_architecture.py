"""The layout is the data flow: import-linter's contracts hold, and every stage package is installed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import tomllib
from package_layout import ROOT, installed_layout, listed_packages, packages_on_disk, stage_packages


def test_import_contracts_hold(tmp_path):
    """Stages import downwards only, no module cycle within a stage, and the shim imports nothing of the linter."""
    # import-linter finds a package's modules by walking its folder; the editable install maps
    # three top-level folders onto one name, which a walk cannot see: it walks the wheel's layout.
    layout = installed_layout(tmp_path / "layout")
    lint_imports = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint_imports), str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=layout,
        env={"PYTHONPATH": str(layout), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 3 kept, 0 broken." in done.stdout


def test_every_stage_package_is_listed_for_installation():
    """pyproject.toml lists the packages by hand (package-dir maps three folders): a new stage must be listed."""
    assert listed_packages() == packages_on_disk()


def test_every_layer_is_a_stage_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c["layers"] for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    assert set(layers) == stage_packages() | {"steplint.api", "steplint.rules"}
