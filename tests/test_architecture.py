"""The layout is the data flow: import-linter's contracts hold, and every stage package is installed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def _installed_layout(target: Path) -> Path:
    """The package as a wheel lays it out (steplint/, steplint/rules/, steplint/runtime_shim/), from the working tree.

    import-linter finds a package's modules by walking its folder; the editable
    install maps three top-level folders onto one name, which a walk cannot see.
    """
    package = target / "steplint"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "lint", package, ignore=ignore)
    shutil.copytree(ROOT / "rules", package / "rules", ignore=ignore)
    shutil.copytree(ROOT / "runtime_shim", package / "runtime_shim", ignore=ignore)
    return target


def test_import_contracts_hold(tmp_path):
    """Stages import downwards only, no module cycle within a stage, and the shim imports nothing of the linter."""
    layout = _installed_layout(tmp_path / "layout")
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
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {"steplint", "steplint.rules", "steplint.runtime_shim"}
    on_disk |= {
        "steplint." + ".".join(init.parent.relative_to(ROOT / "lint").parts)
        for init in (ROOT / "lint").rglob("__init__.py")
        if init.parent != ROOT / "lint"
    }
    assert listed == on_disk


def test_every_layer_is_a_stage_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c["layers"] for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    stages = {f"steplint.{p.name}" for p in (ROOT / "lint").iterdir() if (p / "__init__.py").is_file()}
    assert set(layers) == stages | {"steplint.api", "steplint.rules"}
