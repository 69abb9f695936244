"""Where the import system would find a module: the files a name means, searched as ``sys.path`` is.

The roots (the folders above the run files' packages) then the ``search_roots``
(the project's folder, its ``src/`` and the folders linted) are one ``sys.path``,
searched by PEP 420's rules: a folder without ``__init__.py`` is a namespace
package whose portions merge across entries, so ``shared/models.py`` answers to
``shared.models`` whatever name its own folders give it.
Searched ``near`` an importing file, only that file's ancestor folders count,
nearest first, up to the first that marks a project (the folder an app is run
from when the linted path is inside it or far above it).

``consulted`` collects every path whose content or absence shaped an answer:
the run cache checks them before it trusts a module's kept findings.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from steplint.config.settings import Settings

# A folder holding one of these is where a project's imports start: the walk up from a file stops there.
PROJECT_MARKERS = frozenset({"pyproject.toml", "setup.py", "setup.cfg", ".git"})


def search_roots_for(settings: Settings, paths: list[str]) -> list[str]:
    """Where namespace packages are looked for: the project's folder, its ``src/``, and the folders linted."""
    root = str(settings.project_root)
    found = [root, os.path.join(root, "src")]
    found.extend(os.path.abspath(p) for p in paths if os.path.isdir(p))
    return [f for f in found if os.path.isdir(f)]


def importable(name: str) -> bool:
    """Every part of the dotted ``name`` is an identifier: an import statement could spell it."""
    return all(part.isidentifier() for part in name.split("."))


@dataclass(slots=True)
class _Portions:
    """A namespace package's path: the folders named like it that hold no ``__init__``."""

    folders: list[str]


class ImportSearch:
    """The file a module name means under the roots, the search roots, or the folders above an importer."""

    def __init__(self, roots: list[str], search_roots: list[str]):
        self.roots = roots
        self.search_roots = [r for r in dict.fromkeys(os.path.abspath(r) for r in search_roots) if r not in roots]
        self.consulted: set[str] = set()
        self._listings: dict[str, frozenset[str]] = {}
        self._parts: dict[tuple[tuple[str, ...], str], tuple[str | _Portions, frozenset[str]]] = {}

    def on_path(self, name: str) -> str | None:
        """The file for ``name`` with the roots, then the search roots, as ``sys.path``."""
        return self.find(self.roots + self.search_roots, name)

    def near(self, name: str, importer: str) -> str | None:
        """The file for ``name`` in the folders above ``importer``, up to the project's folder."""
        head = name.split(".", 1)[0]
        heads = (head, head + ".py", head + ".pyi")
        searched = set(self.roots) | set(self.search_roots)
        folder = os.path.dirname(os.path.abspath(importer))
        while True:
            listing = self._listing(folder) or frozenset()
            if folder not in searched:
                if listing.intersection(heads):
                    found = self.find([folder], name)
                    if found is not None:
                        return found
                else:
                    # These paths, not the folder's time: a folder far up (/tmp, a home) changes all the time.
                    self.consulted.update(os.path.join(folder, entry) for entry in heads)
            self.consulted.update(os.path.join(folder, marker) for marker in PROJECT_MARKERS)
            parent = os.path.dirname(folder)
            if listing & PROJECT_MARKERS or parent == folder:
                return None
            folder = parent

    def find(self, entries: list[str], name: str) -> str | None:
        """The file ``name`` means with ``entries`` as ``sys.path``, found as PEP 420's path finder would.

        Each part is looked for in every entry in turn: the first regular package or module wins,
        and the namespace portions seen before it are dropped; with neither, the portions of every
        entry together are the namespace package's path, where the next part is looked for. A
        namespace package itself has no file, and a module has no submodules.
        """
        locations = entries
        parts = name.split(".")
        for depth, part in enumerate(parts):
            found = self._part_in(locations, part)
            if isinstance(found, _Portions):
                if not found.folders or depth == len(parts) - 1:
                    return None
                locations = found.folders
            elif depth == len(parts) - 1:
                return found
            elif os.path.basename(found).startswith("__init__."):
                locations = [os.path.dirname(found)]
            else:
                return None
        return None

    def _part_in(self, locations: list[str], part: str) -> str | _Portions:
        """The package's ``__init__`` or module file for ``part`` in the first location that has one,
        else the namespace portions: folders named ``part`` without an ``__init__``.

        Answered once per run (as the listings are): a run's modules ask for the same names over and over. An
        answer given again consults again what it consulted the first time (a worker's share records its own)."""
        key = (tuple(locations), part)
        known = self._parts.get(key)
        if known is None:
            consulted: set[str] = set()
            known = self._parts[key] = (self._search_part(locations, part, consulted), frozenset(consulted))
        found, consulted_then = known
        self.consulted.update(consulted_then)
        return found if isinstance(found, str) else _Portions(list(found.folders))

    def _search_part(self, locations: list[str], part: str, consulted: set[str]) -> str | _Portions:
        portions = _Portions([])
        for location in locations:
            listing = self._listing(location)
            if listing is None or not ({part, part + ".py", part + ".pyi"} & listing):
                # The folder's own time changes when an entry is added or removed: the cache checks it.
                consulted.add(location)
                continue
            folder = os.path.join(location, part)
            # Within one location a package beats a module, and a module beats a namespace portion.
            for candidate in (
                os.path.join(folder, "__init__.py"),
                os.path.join(folder, "__init__.pyi"),
                folder + ".py",
                folder + ".pyi",
            ):
                consulted.add(candidate)
                if os.path.isfile(candidate):
                    return candidate
            consulted.add(folder)
            if os.path.isdir(folder):
                portions.folders.append(folder)
        return portions

    def _listing(self, root: str) -> frozenset[str] | None:
        found = self._listings.get(root)
        if found is None:
            try:
                found = self._listings[root] = frozenset(os.listdir(root))
            except OSError:
                return None
        return found
