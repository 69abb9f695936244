"""The call graph of the code under given paths: files named by where they sit, then the value flow run whole.

A folder given is an import root, as an entry of ``sys.path`` is: the modules
under it are named from it (``main``, ``pkg.mod``; its own ``__init__.py`` is
no module of its own), with folders that have no ``__init__.py`` as namespace
packages and a ``src/`` folder as a root too. A file given alone is named from
the current folder when it is under it, else from its own folder. Modules the
code imports from elsewhere (the project's other folders, its ``src/``) are
followed as the linter follows them, and their functions are callees but not
keys.
"""

from __future__ import annotations

import os
from pathlib import Path
from dataclasses import dataclass
from typing import Generic, TypeVar

from steplint.analysis.call_graph import CallGraph
from steplint.analysis.workflow_graph import Graph, GraphBuilder
from steplint.config.settings import Settings
from steplint.core.diagnostics import Diagnostic
from steplint.core.summary import ModuleSummary
from steplint.run.checking import Checking
from steplint.rules.stp900_syntax_error import SyntaxErrorRule
from steplint.run.run_files import excluder_for, files_to_lint
from steplint.source.discovery import discover
from steplint.source.import_search import search_roots_for
from steplint.summaries.file_summary import summarize_path


Drawing = TypeVar("Drawing")


@dataclass(frozen=True)
class GraphResult(Generic[Drawing]):
    """A graph of the files that could be read, and the findings of those that could not (missing, unparsable)."""

    graph: Drawing
    unreadable: list[Diagnostic]


def _unreadable(checking: Checking, modules: list[ModuleSummary]) -> list[Diagnostic]:
    return sorted((d for m in modules if m.error is not None for d in checking.findings(m).diagnostics
                   if d.code == SyntaxErrorRule.code), key=Diagnostic.sort_key)


def identity_under(root: str, path: str) -> tuple[str, bool] | None:
    """The module name ``path`` has with ``root`` on ``sys.path`` (None: no import can name it)."""
    relative = Path(os.path.abspath(path)).relative_to(os.path.abspath(root))
    parts = list(relative.parts)
    stem = parts[-1].rsplit(".", 1)[0]
    is_package = stem == "__init__"
    parts = parts[:-1] if is_package else [*parts[:-1], stem]
    if "src" in parts[:-1]:  # a src/ layout under the root: the modules are named from src/
        parts = parts[len(parts) - 1 - parts[::-1][1:].index("src"):]
    if not parts or not all(part.isidentifier() for part in parts):
        return None
    return ".".join(parts), is_package


def call_graph_for(paths: list[str], settings: Settings) -> GraphResult[dict[str, list[str]]]:
    """``steplint graph --calls``: each function's qualified name -> the sorted names of what it calls."""
    modules: list[ModuleSummary] = []
    seen: set[str] = set()
    cwd = os.getcwd()
    for given in paths:
        root = given if os.path.isdir(given) else (cwd if _under(given, cwd) else os.path.dirname(os.path.abspath(given)))
        for path in discover([given], excluder_for(settings)):
            absolute = os.path.abspath(path)
            if absolute in seen:
                continue
            identity = identity_under(root, path)
            if identity is None:
                continue
            seen.add(absolute)
            modules.append(summarize_path(path, settings.max_file_size, identity))
    roots = list(dict.fromkeys(_root_of(m) for m in modules))
    checking = Checking(settings, modules, roots=roots, search_roots=search_roots_for(settings, paths))
    readable = [m for m in modules if m.error is None]
    graph = CallGraph(checking.analysis.engine, readable, lambda m: m.module)
    graph.run()
    return GraphResult(graph.edges(), _unreadable(checking, modules))


def _under(path: str, folder: str) -> bool:
    try:
        Path(os.path.abspath(path)).relative_to(folder)
    except ValueError:
        return False
    return True


def _root_of(module: ModuleSummary) -> str:
    folder = os.path.dirname(os.path.abspath(module.path))
    for _ in range(module.module.count(".") + (1 if module.is_package else 0)):
        folder = os.path.dirname(folder)
    return folder


def workflow_graph_for(
    paths: list[str], settings: Settings, workflow: str | None = None, helpers: bool = False, whole: bool = False,
) -> GraphResult[Graph]:
    """``steplint graph``: the workflows under ``paths`` (or the one named), or every step grouped by module."""
    modules = [summarize_path(p, settings.max_file_size) for p in files_to_lint(paths, settings)]
    checking = Checking(settings, modules, search_roots=search_roots_for(settings, paths))
    checked = [m for m in modules if m.error is None]
    findings = checking.concluded([checking.findings(m) for m in checked], True, reportable=lambda path: True)
    pins = {rule.code: rule.graph_pin for rule in checking.rules}
    builder = GraphBuilder(checking.analysis, findings, show_helpers=helpers, pins=pins)
    unreadable = _unreadable(checking, modules)
    if whole:
        return GraphResult(builder.project(checked), unreadable)
    chosen = builder.workflows(checked)
    if workflow is not None:
        chosen = [(w, m) for w, m in chosen if workflow in (w.display, w.maf_name, f"{w.module.module}.{w.display}")]
        if not chosen:
            raise LookupError(f"no workflow named '{workflow}' under {', '.join(paths)}")
    return GraphResult(builder.for_workflows(chosen), unreadable)
