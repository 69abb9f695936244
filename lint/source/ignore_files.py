"""``.gitignore``, ``.ignore`` and ``.git/info/exclude``, read as git reads them (with the ``pathspec`` library).

As in ruff (which follows ripgrep's ``ignore`` crate): ``.gitignore`` files and
``.git/info/exclude`` count inside a git repository only, ``.ignore`` files
everywhere; a deeper file's patterns win over a shallower one's, and within
one file the last matching pattern decides (``!keep.py`` re-includes).
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec


@lru_cache(maxsize=4096)
def _spec(path: str, mtime_ns: int) -> pathspec.GitIgnoreSpec | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    import pathspec  # only a run that meets an ignore file pays for importing it (about 10 ms)

    return pathspec.GitIgnoreSpec.from_lines(lines)


def _load(path: str) -> pathspec.GitIgnoreSpec | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return _spec(path, stat.st_mtime_ns)


class IgnoreFiles:
    """Which paths the ignore files of their folders (up to the repository root) leave out."""

    def __init__(self) -> None:
        self._folders: dict[str, list[tuple[str, pathspec.GitIgnoreSpec]]] = {}
        self._repositories: dict[str, str | None] = {}

    def _repository(self, folder: str) -> str | None:
        """The git work tree ``folder`` is in (the folder holding ``.git``), or None."""
        found = self._repositories.get(folder)
        if folder in self._repositories:
            return found
        parent = os.path.dirname(folder)
        if os.path.exists(os.path.join(folder, ".git")):
            found = folder
        elif parent != folder:
            found = self._repository(parent)
        else:
            found = None
        self._repositories[folder] = found
        return found

    def _specs(self, folder: str) -> list[tuple[str, pathspec.GitIgnoreSpec]]:
        """The specs that apply inside ``folder``, shallowest first, each with the folder its patterns are relative to."""
        found = self._folders.get(folder)
        if found is not None:
            return found
        repository = self._repository(folder)
        parent = os.path.dirname(folder)
        inherited = self._specs(parent) if parent != folder and (repository is None or folder != repository) else []
        found = list(inherited)
        if repository is not None and folder == repository:
            spec = _load(os.path.join(folder, ".git", "info", "exclude"))
            if spec is not None:
                found.append((folder, spec))
        names = (".gitignore", ".ignore") if repository is not None else (".ignore",)
        for name in names:
            spec = _load(os.path.join(folder, name))
            if spec is not None:
                found.append((folder, spec))
        self._folders[folder] = found
        return found

    def ignored(self, path: str, is_dir: bool, named_folder: str | None = None) -> bool:
        """Whether ``path`` is ignored; inside ``named_folder`` (an ignored folder the user named), the
        patterns that ignore that folder do not count, as ruff lints a folder named on its command line."""
        absolute = os.path.abspath(path)
        verdict = None
        for base, spec in self._specs(os.path.dirname(absolute)):
            relative = os.path.relpath(absolute, base).replace(os.sep, "/")
            if relative.startswith(".."):
                continue
            candidate = relative + "/" if is_dir else relative
            named = _relative_folder(named_folder, base) if named_folder is not None else None
            if named is None:
                result = spec.check_file(candidate).include
            else:
                result = _last_match(spec, candidate, named)
            if result is not None:
                verdict = result
        return bool(verdict)


def _relative_folder(folder: str, base: str) -> str | None:
    """``folder`` relative to ``base`` with a trailing slash, None when it is not below ``base``."""
    relative = os.path.relpath(os.path.abspath(folder), base).replace(os.sep, "/")
    return None if relative.startswith("..") or relative == "." else relative + "/"


def _last_match(spec: pathspec.GitIgnoreSpec, candidate: str, named: str) -> bool | None:
    """The verdict of the last pattern that matches ``candidate`` but not the folder ``named``."""
    verdict = None
    for pattern in spec.patterns:
        if pattern.include is not None and pattern.match_file(candidate) is not None and pattern.match_file(named) is None:
            verdict = pattern.include
    return verdict
