"""Which files a run lints.

Folders are walked recursively for ``.py`` and ``.pyi`` files, skipping
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
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import lru_cache
from pathlib import Path

DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", ".venv", "venv", ".env", "env", "build", "dist", "__pycache__",
    "node_modules", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".steplint_cache",
    "*.egg-info", "site-packages",
)
PYTHON_SUFFIXES = (".py", ".pyi")


@lru_cache(maxsize=64)
def _split_patterns(patterns: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(patterns matched against each path component, patterns matched against the relative path)."""
    bare = [pattern.rstrip("/") for pattern in patterns]
    return tuple(b for b in bare if "/" not in b), tuple(b.lstrip("/") for b in bare if "/" in b)


@lru_cache(maxsize=65536)
def _name_excluded(part: str, names: tuple[str, ...]) -> bool:
    # Folder names repeat across a tree: each is matched against the patterns once per run.
    return any(fnmatchcase(part, name) for name in names)


class MissingPath(Exception):
    pass


@dataclass(frozen=True)
class Excluder:
    patterns: tuple[str, ...]
    root: Path

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

    def add(path: str) -> None:
        real = os.path.realpath(path)
        if real not in seen:
            seen.add(real)
            found.append(os.path.normpath(path))

    for path in paths:
        if not os.path.lexists(path):
            raise MissingPath(path)
        if os.path.isdir(path):
            for file in _walk(path, excluder):
                add(file)
        elif not (force_exclude and excluder.excluded(path)):
            add(path)
    return found


def _walk(top: str, excluder: Excluder) -> list[str]:
    files: list[str] = []
    visited: set[tuple[int, int]] = set()
    for directory, dirnames, filenames in os.walk(top, followlinks=True):
        try:
            stat = os.stat(directory)
        except OSError:
            dirnames[:] = []
            continue
        if (stat.st_dev, stat.st_ino) in visited:  # a symlink loop
            dirnames[:] = []
            continue
        visited.add((stat.st_dev, stat.st_ino))
        dirnames[:] = sorted(d for d in dirnames if not excluder.excluded(os.path.join(directory, d), top))
        for name in sorted(filenames):
            if name.endswith(PYTHON_SUFFIXES):
                path = os.path.join(directory, name)
                # Only regular files are source: a dangling or looping symlink, a FIFO (reading
                # it would block) or a socket found in a folder is not, and is left out.
                if not excluder.excluded(path, top) and os.path.isfile(path):
                    files.append(path)
    return files
