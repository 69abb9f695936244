"""Module names for file paths: the dotted name an import would use.

The root is the nearest folder above the file's chain of packages (folders
with ``__init__.py``/``__init__.pyi`` whose names are identifiers: ``my.project/``
or ``tmp.AbC123/`` can never be a package part, whatever it holds); a ``src/``
folder above the file is a root too, so ``src/pkg/mod.py`` is ``pkg.mod`` even
in a namespace package. A file no import can name (``a.b.py``, ``.py``) gets a
name no import uses.

The answers per folder are remembered; a long-lived process (the language
server) calls ``forget_folders()`` when files may have been created or deleted.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from steplint.source.notebooks import NOTEBOOK_SUFFIX


@lru_cache(maxsize=4096)
def _is_package_dir(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "__init__.py")) or os.path.isfile(
        os.path.join(directory, "__init__.pyi")
    )


def forget_folders() -> None:
    """Forget which folders are packages: a file created or deleted since may change the answer."""
    _is_package_dir.cache_clear()
    _folder_parts.cache_clear()


def module_name(path: str | Path) -> tuple[str, bool]:
    """The module's dotted name, and whether it is a package's ``__init__``."""
    directory, filename = os.path.split(os.path.abspath(path))
    if filename.endswith(NOTEBOOK_SUFFIX):
        # Jupyter runs a notebook with its folder first on sys.path, as a script: nothing imports it, and
        # it imports what its folder (and the project) holds. A dash keeps its name out of every import.
        return filename.replace(".", "-"), False
    # ``helpers.extra.py`` cannot be imported at all, least of all as ``helpers.extra``: a dot
    # in a stem must not make it a submodule of a module it merely shares a prefix with.
    stem = filename.rsplit(".", 1)[0].replace(".", "-") or "-"
    is_package = stem == "__init__"
    parts = _folder_parts(directory) if is_package else (*_folder_parts(directory), stem)
    return ".".join(parts) or stem, is_package


@lru_cache(maxsize=4096)
def _folder_parts(folder: str) -> tuple[str, ...]:
    """The dotted name a folder gives the modules in it, outermost part first (one answer per folder)."""
    parts: list[str] = []
    directory = Path(folder)
    while directory.name.isidentifier() and _is_package_dir(str(directory)) and directory.parent != directory:
        parts.append(directory.name)
        directory = directory.parent
    if directory.name != "src":
        # A namespace package under a src/ layout: climb to the src folder.
        for ancestor in directory.parents:
            below = directory.relative_to(ancestor).parts
            if ancestor.name == "src" and len(below) <= 3:
                if all(part.isidentifier() for part in below):
                    parts.extend(reversed(below))
                break
    return tuple(reversed(parts))


def module_of(path: str) -> tuple[str, bool]:
    """``module_name``, or the file's stem for a path the OS rejects: an odd path must still get its finding."""
    try:
        return module_name(path)
    except Exception:
        return Path(path).stem, False


@dataclass(slots=True)
class ModuleFile:
    """A file of a run with its module identity."""

    path: str
    module: str
    is_package: bool
    root: str  # the folder the import system would search for ``module``

    @property
    def head(self) -> str:
        return self.module.split(".", 1)[0]


def module_file(path: str) -> ModuleFile:
    module, is_package = module_of(path)
    return ModuleFile(path, module, is_package, package_root(path, module, is_package))


def package_root(path: str, module: str, is_package: bool) -> str:
    """The folder the import system would search to find ``module`` at ``path``."""
    depth = module.count(".") + (1 if is_package else 0)
    directory = os.path.dirname(os.path.abspath(path))
    for _ in range(depth):
        directory = os.path.dirname(directory)
    return directory
