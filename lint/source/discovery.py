"""Which files a run lints.

Folders are walked recursively for ``.py``, ``.pyi`` and ``.ipynb`` files, skipping
excluded names (gitignore-style globs matched against every path component
and against the path relative to the project root). Symlinked folders are
followed, each real folder once (a symlink loop ends there); inside folders,
only regular files count. A file named on the command line is always linted,
unless ``--force-exclude`` asks otherwise; if it cannot be read (a dangling
symlink, a FIFO), that is its STP900 finding. A file named several times, or
reached several ways, is linted once.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from fnmatch import fnmatchcase, translate
from functools import lru_cache
from pathlib import Path
from typing import Callable

from steplint.source.ignore_files import IgnoreFiles
from steplint.source.notebooks import NOTEBOOK_SUFFIX

PYTHON_SUFFIXES = (".py", ".pyi")
LINTED_SUFFIXES = (*PYTHON_SUFFIXES, NOTEBOOK_SUFFIX)  # ruff's default include: *.py, *.pyi, *.ipynb


@lru_cache(maxsize=64)
def _split_patterns(patterns: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(patterns matched against each path component, patterns matched against the relative path)."""
    bare = [pattern.rstrip("/") for pattern in patterns]
    return tuple(b for b in bare if "/" not in b), tuple(b.lstrip("/") for b in bare if "/" in b)


@lru_cache(maxsize=64)
def _name_matcher(names: tuple[str, ...]) -> Callable[[str], object]:
    """One regular expression for all the patterns (``fnmatchcase`` translates each to one)."""
    if not names:
        return lambda part: None
    return re.compile("|".join(f"(?:{translate(name)})" for name in names)).match


def _name_excluded(part: str, names: tuple[str, ...]) -> bool:
    return _name_matcher(names)(part) is not None


class MissingPath(Exception):
    pass


@dataclass(frozen=True)
class Excluder:
    patterns: tuple[str, ...]
    root: Path
    ignore_files: IgnoreFiles | None = None  # None: --no-respect-gitignore
    include: tuple[str, ...] | None = None  # ``include`` globs a file found in a folder must match; None: any

    def included(self, path: str, name: str) -> bool:
        """Whether a ``.py``/``.pyi`` file found in a folder is one ``include`` asks for (ruff's ``include``: a pattern
        without a ``/`` matches the name, one with a ``/`` the path relative to the project root)."""
        if self.include is None:
            return True
        names, paths = _split_patterns(self.include)
        if _name_excluded(name, names):
            return True
        if not paths:
            return False
        relative = Path(os.path.abspath(path)).as_posix()
        try:
            relative = Path(os.path.abspath(path)).relative_to(self.root).as_posix()
        except ValueError:
            pass
        return any(fnmatchcase(relative, bare) for bare in paths)

    def ignored(self, path: str, is_dir: bool, named_folder: str | None = None) -> bool:
        return self.ignore_files is not None and self.ignore_files.ignored(path, is_dir, named_folder)

    def excluded(self, path: str, walked_from: str | None = None) -> bool:
        # Only the components below a folder the user named count: linting
        # ``.venv/lib/site-packages/pkg`` on purpose must not exclude itself.
        parts = Path(os.path.relpath(path, walked_from)).parts if walked_from else Path(path).parts
        names, paths = _split_patterns(self.patterns)
        if any(_name_excluded(part, names) for part in parts if part not in (".", "..")):
            return True
        if not paths:
            return False
        try:
            relative = Path(os.path.abspath(path)).relative_to(self.root).as_posix()
        except ValueError:
            return False
        return any(fnmatchcase(relative, bare) or fnmatchcase(relative, bare + "/*") for bare in paths)


def discover(paths: list[str], excluder: Excluder, force_exclude: bool = False) -> list[str]:
    """The files to lint, each once, in a stable order."""
    found: list[str] = []
    seen: set[str] = set()

    def add(path: str, real: str) -> None:
        if real not in seen:
            seen.add(real)
            found.append(os.path.normpath(path))

    for path in paths:
        if not os.path.lexists(path):
            add(path, os.path.abspath(path))  # reading it says why: that path's STP900, the others still linted
        elif os.path.isdir(path):
            for file, real in _walk(path, excluder, force_exclude):
                add(file, real)
        elif not (force_exclude and (excluder.excluded(path) or excluder.ignored(path, False))):
            add(path, os.path.realpath(path))
    return found


def _walk(top: str, excluder: Excluder, force_exclude: bool = False) -> list[tuple[str, str]]:
    """Python files under ``top`` with their real paths: top-down, a folder's files before its subfolders, by name.

    A folder's own path was matched when it was entered, so below it only each
    entry's name is, plus the whole path for patterns with a ``/``. The kind
    of each entry comes from the folder listing, and a file's real path from
    its folder's unless it is a link itself: no system call per file. A
    folder named on the command line is walked even when an ignore file
    ignores it (as ruff does, unless ``--force-exclude``).
    """
    files: list[tuple[str, str]] = []
    visited: set[tuple[int, int]] = set()
    names, paths = _split_patterns(excluder.patterns)
    named_ignored = top if not force_exclude and excluder.ignored(top, True) else None

    def excluded(path: str, name: str, is_dir: bool) -> bool:
        return (
            _name_excluded(name, names) or bool(paths) and excluder.excluded(path, top)
            or excluder.ignored(path, is_dir, named_ignored)
        )

    pending = [(top, os.path.realpath(top))]
    while pending:
        directory, real_directory = pending.pop()
        try:
            stat = os.stat(directory)
            with os.scandir(directory) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            continue
        if (stat.st_dev, stat.st_ino) in visited:  # a symlink loop
            continue
        visited.add((stat.st_dev, stat.st_ino))
        folders = []
        for entry in entries:
            if _is_dir(entry):
                if not excluded(entry.path, entry.name, True):
                    folders.append((entry.path, _real_path(entry, real_directory)))
            # Only regular files are source: a dangling or looping symlink, a FIFO (reading
            # it would block) or a socket found in a folder is not, and is left out.
            elif (entry.name.endswith(LINTED_SUFFIXES) and not excluded(entry.path, entry.name, False)
                  and excluder.included(entry.path, entry.name) and _is_file(entry)):
                files.append((entry.path, _real_path(entry, real_directory)))
        pending.extend(reversed(folders))
    return files


def _real_path(entry: os.DirEntry, real_directory: str) -> str:
    return os.path.realpath(entry.path) if entry.is_symlink() else os.path.join(real_directory, entry.name)


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _is_file(entry: os.DirEntry) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False
