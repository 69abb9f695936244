"""How the source folders map to packages, read from pyproject.toml's ``package-dir``: the one place that says it.

``lint/`` is ``steplint``, ``rules/`` is ``steplint.rules``, ``runtime_shim/`` is
``steplint.runtime_shim``. A test or script that walks the tree by folders
(the architecture test's import-linter layout, the packages listed for
installation, a snapshot of the sources) asks here instead of naming folders.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def _setuptools() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def package_folders() -> dict[str, Path]:
    """Each mapped package's dotted name -> its folder in the working tree, outermost package first."""
    mapping = _setuptools()["package-dir"]
    return {name: ROOT / mapping[name] for name in sorted(mapping, key=lambda n: n.count("."))}


def listed_packages() -> set[str]:
    """The packages pyproject.toml lists for installation."""
    return set(_setuptools()["packages"])


def packages_on_disk() -> set[str]:
    """Every folder with an ``__init__.py`` under a mapped folder, by the dotted name it is installed as."""
    folders = package_folders().values()
    return {module_name(init).removesuffix(".__init__") for folder in folders for init in folder.rglob("__init__.py")}


def module_name(path: Path) -> str:
    """The dotted name of a source file (or a package's ``__init__.py``) of the working tree, as installed.

    The deepest mapped folder that holds it decides: ``rules/`` is not a folder of ``lint/``.
    """
    path = path.resolve()
    for name, folder in reversed(package_folders().items()):
        if path.is_relative_to(folder.resolve()):
            parts = path.relative_to(folder.resolve()).with_suffix("").parts
            return ".".join((name, *parts))
    raise ValueError(f"{path} is in no folder pyproject.toml maps to a package")


def stage_packages() -> set[str]:
    """The stages: the packages one level below ``steplint`` whose folder is inside ``steplint``'s own."""
    root = package_folders()["steplint"]
    return {f"steplint.{p.name}" for p in root.iterdir() if (p / "__init__.py").is_file()}


def installed_layout(target: Path) -> Path:
    """The packages as a wheel lays them out (steplint/, steplint/rules/, ...), copied from the working tree."""
    ignore = shutil.ignore_patterns("__pycache__")
    for name, folder in package_folders().items():
        shutil.copytree(folder, target.joinpath(*name.split(".")), ignore=ignore)
    return target
