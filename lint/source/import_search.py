"""Where the import system would find a module: the files a name means, searched as ``sys.path`` is.

Roots are searched first (the folders above the run files' packages), then
``search_roots`` (the project's folder, its ``src/`` and the folders linted),
where a folder without ``__init__.py`` is a namespace package: ``shared/models.py``
there answers to ``shared.models`` whatever name its own folders give it.
Searched ``near`` an importing file, only that file's ancestor folders count,
nearest first, up to the first that marks a project (the folder an app is run
from when the linted path is inside it or far above it).

``consulted`` collects every path whose content or absence shaped an answer:
the run cache checks them before it trusts a module's kept findings.
"""

from __future__ import annotations

import os

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


class ImportSearch:
    """The file a module name means under the roots, the search roots, or the folders above an importer."""

    def __init__(self, roots: list[str], search_roots: list[str]):
        self.roots = roots
        self.search_roots = [r for r in dict.fromkeys(os.path.abspath(r) for r in search_roots) if r not in roots]
        self.consulted: set[str] = set()
        self._listings: dict[str, frozenset[str]] = {}

    def in_roots(self, name: str) -> str | None:
        """The first root's file for ``name`` (the caller checks that the file takes that name)."""
        return self._first_under(self.roots, name)

    def in_search_roots(self, name: str) -> str | None:
        return self._first_under(self.search_roots, name)

    def _first_under(self, roots: list[str], name: str) -> str | None:
        relative = name.replace(".", os.sep)
        for root in roots:
            found = self.under(root, name, relative)
            if found is not None:
                return found
        return None

    def near(self, name: str, importer: str) -> str | None:
        """The file for ``name`` in the folders above ``importer``, up to the project's folder."""
        relative = name.replace(".", os.sep)
        head = name.split(".", 1)[0]
        heads = (head, head + ".py", head + ".pyi")
        searched = set(self.roots) | set(self.search_roots)
        folder = os.path.dirname(os.path.abspath(importer))
        while True:
            listing = self._listing(folder) or frozenset()
            if folder not in searched:
                if listing.intersection(heads):
                    found = self.under(folder, name, relative)
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

    def under(self, root: str, name: str, relative: str) -> str | None:
        head = name.split(".", 1)[0]
        listing = self._listing(root)
        if listing is not None and not ({head, head + ".py", head + ".pyi"} & listing):
            # Nothing under this root can be the module: one listing spares four stats per name asked.
            # The folder's own time changes when an entry is added or removed: the cache checks it.
            self.consulted.add(root)
            return None
        for candidate in (
            os.path.join(root, relative + ".py"),
            os.path.join(root, relative, "__init__.py"),
            os.path.join(root, relative + ".pyi"),
            os.path.join(root, relative, "__init__.pyi"),
        ):
            self.consulted.add(candidate)
            if os.path.isfile(candidate):
                return candidate
        return None

    def _listing(self, root: str) -> frozenset[str] | None:
        found = self._listings.get(root)
        if found is None:
            try:
                found = self._listings[root] = frozenset(os.listdir(root))
            except OSError:
                return None
        return found
