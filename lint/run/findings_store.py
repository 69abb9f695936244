"""Findings kept per module, with what they were read from, so one changed file re-checks only its dependents.

A module's findings depend on its own text and on the modules its names
resolve into, at any depth: the project index records, for every module, the
module names resolution inside it asked for (``ProjectIndex.edges``). Those
edges are facts about a module's own text, so they stay true while the text
does; a memo that answered a later question from an earlier one still
resolved through recorded edges the first time. The findings of module M are
therefore stale exactly when a module M reaches through the edges (M included)
changed its text; every other module's kept findings are what a full analysis
would make again.

The edges name modules, and which file a name means rests on the run's files
and on which paths exist under the package roots. When either differs, the
store is not used at all (``usable``): adding, removing or renaming a file
re-checks everything, from cached summaries.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable, Iterable

from steplint.core.findings import ModuleFindings

RunFiles = list[tuple[str, str, bool]]  # each run file's path, module name, whether it is a package


@dataclass(slots=True)
class ModuleStore:
    files: RunFiles
    probes: dict[str, bool] = field(default_factory=dict)  # paths the loader looked for: whether each exists
    outside: dict[str, tuple[str, ...]] = field(default_factory=dict)  # name -> absolute paths loaded for it, not run files
    digests: dict[str, str | None] = field(default_factory=dict)  # absolute path -> content hash the findings saw
    edges: dict[str, frozenset[str]] = field(default_factory=dict)  # module name -> names asked for inside it
    findings: dict[str, ModuleFindings] = field(default_factory=dict)  # reported path -> its findings

    def usable(self, files: RunFiles) -> bool:
        """Every name still means the file it meant: same run files, same probed paths present."""
        return self.files == files and all(os.path.exists(path) == present for path, present in self.probes.items())

    def backing(self) -> dict[str, list[str]]:
        """Module name -> the absolute paths of the files that can answer for it."""
        found: dict[str, list[str]] = {}
        for path, name, _ in self.files:
            found.setdefault(name, []).append(os.path.abspath(path))
        for name, paths in self.outside.items():
            found.setdefault(name, []).extend(paths)
        return found

    def changed_names(self, digest_of: Callable[[str], str | None]) -> set[str]:
        """Names whose files' text differs from what the kept findings saw."""
        return {
            name
            for name, paths in self.backing().items()
            if any(path not in self.digests or digest_of(path) != self.digests[path] for path in paths)
        }

    def stale(self, changed: set[str]) -> set[str]:
        """Every module name that reaches a changed one through the edges (the changed ones included)."""
        askers: dict[str, list[str]] = {}
        for origin, asked in self.edges.items():
            for name in asked:
                askers.setdefault(name, []).append(origin)
        stale = set(changed)
        pending = list(changed)
        while pending:
            for origin in askers.get(pending.pop(), ()):
                if origin not in stale:
                    stale.add(origin)
                    pending.append(origin)
        return stale

    def kept(self, reported: Iterable[tuple[str, str]], stale: set[str]) -> dict[str, ModuleFindings]:
        """The findings still true, by path, of the reported (path, module name) pairs."""
        return {
            path: self.findings[path]
            for path, name in reported
            if name not in stale and path in self.findings
        }


def next_store(
    previous: ModuleStore | None,
    files: RunFiles,
    changed: set[str],
    edges: dict[str, set[str]],
    loaded: dict[str, list[str]],
    probes: Iterable[str],
    findings: dict[str, ModuleFindings],
    digest_of: Callable[[str], str | None],
) -> ModuleStore:
    """The store after a run: its edges, loads and probes added to the still-true ones of ``previous``.

    ``findings`` are every reported module's findings worth keeping (fresh or
    kept); ``changed`` the names whose text changed since ``previous``.
    """
    run_paths = {os.path.abspath(path) for path, _, _ in files}
    store = ModuleStore(files)
    if previous is not None:
        store.probes.update(previous.probes)
        store.outside.update(previous.outside)
        store.edges.update((name, asked) for name, asked in previous.edges.items() if name not in changed)
    store.probes.update((path, os.path.exists(path)) for path in probes)
    for name, paths in loaded.items():
        outside = [os.path.abspath(p) for p in paths if os.path.abspath(p) not in run_paths]
        if outside:
            store.outside[name] = tuple(dict.fromkeys((*store.outside.get(name, ()), *outside)))
    backed = store.backing()
    for name, asked in edges.items():
        kept = {other for other in asked if other in backed and other != name}
        if kept or name in store.edges:
            store.edges[name] = frozenset(kept | store.edges.get(name, frozenset()))
    store.digests = {path: digest_of(path) for paths in backed.values() for path in paths}
    store.findings = findings
    return store
