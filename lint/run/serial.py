"""One analysis in this process: summaries -> project index -> rules, per reported module.

``steplint.run.pipeline`` runs this over paths with a cache, a prefilter and
worker processes; ``steplint.api.lint_source`` runs it over one buffer.
Whatever fails in one rule on one module becomes that module's STP900 finding.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Callable, Mapping

from steplint.fixes.source_texts import seed_sources
from steplint.analysis.program import Analysis
from steplint.catalog.selection import selected_rules
from steplint.config.settings import Settings
from steplint.core.diagnostics import Diagnostic
from steplint.core.findings import ModuleFindings, ReportedFile
from steplint.core.framework_versions import NEWEST
from steplint.core.summary import ModuleSummary, Span
from steplint.report.final_findings import final_findings
from steplint.rules.base import Rule
from steplint.rules.stp900_syntax_error import SyntaxErrorRule
from steplint.source.discovery import Excluder
from steplint.source.ignore_files import IgnoreFiles
from steplint.source.module_identity import package_root
from steplint.summaries.file_summary import summarize_path


# A folder holding one of these is where a project's imports start: the walk up from a file stops there.
_PROJECT_MARKERS = frozenset({"pyproject.toml", "setup.py", "setup.cfg", ".git"})


class ModuleLoader:
    """Finds and summarizes modules that reported files import, as the import system would.

    It looks under the run files' package roots, then under ``search_roots``
    (the project's folder, its ``src/`` and the folders linted), where a folder
    without ``__init__.py`` is a namespace package: ``shared/models.py`` there
    answers to ``shared.models`` whatever name its own folders give it.
    Asked ``near`` an importing file, it looks only in that file's ancestor
    folders, nearest first, up to the first that marks a project (the folder
    an app is run from when the linted path is inside it or far above it).

    ``discovered`` maps a module name to files of this run that are not among
    ``summaries`` (the prefilter skipped them): they answer first, in discovery
    order, exactly as they would have as reported files. ``consulted`` collects
    every other path whose content or absence shaped an answer (the run cache
    checks them); ``loaded`` maps each name asked for to the files read for it.
    """

    def __init__(
        self,
        summaries: list[ModuleSummary],
        roots: list[str] | None = None,
        discovered: dict[str, list[str]] | None = None,
        summarize: Callable[[str], ModuleSummary] = summarize_path,
        search_roots: list[str] | None = None,
    ):
        self.roots: list[str] = list(roots) if roots is not None else []
        self.known: dict[str, ModuleSummary] = {os.path.abspath(s.path): s for s in summaries}
        self.discovered = discovered or {}
        self.unchecked = {os.path.normpath(p) for paths in self.discovered.values() for p in paths}
        self.summarize = summarize
        self.consulted: set[str] = set()
        self.loaded: dict[str, list[str]] = {}
        if roots is None:
            for summary in summaries:
                root = package_root(summary.path, summary.module, summary.is_package)
                if root is not None and root not in self.roots:
                    self.roots.append(root)
        self.search_roots = [r for r in dict.fromkeys(os.path.abspath(r) for r in search_roots or ()) if r not in self.roots]
        self._listings: dict[str, frozenset[str]] = {}

    def load(self, path: str) -> ModuleSummary:
        absolute = os.path.abspath(path)
        found = self.known.get(absolute)
        if found is None:
            found = self.known[absolute] = self.summarize(path)
        return found

    def _load_for(self, name: str, path: str) -> ModuleSummary:
        self.loaded.setdefault(name, []).append(path)
        return self.load(path)

    def __call__(self, name: str, near: str | None = None) -> ModuleSummary | None:
        if near is not None:
            return self._near(name, near)
        for path in self.discovered.get(name, ()):
            found = self._load_for(name, path)
            if found.error is None:
                return found
        if not all(part.isidentifier() for part in name.split(".")):
            return None
        relative = name.replace(".", os.sep)
        for root in self.roots:
            found = self._under(root, name, relative)
            if found is not None:
                return found if found.module == name else None
        for root in self.search_roots:
            found = self._under(root, name, relative)
            if found is not None:
                return found
        return None

    def _near(self, name: str, importer: str) -> ModuleSummary | None:
        if not all(part.isidentifier() for part in name.split(".")):
            return None
        relative = name.replace(".", os.sep)
        head = name.split(".", 1)[0]
        heads = (head, head + ".py", head + ".pyi")
        searched = set(self.roots) | set(self.search_roots)
        folder = os.path.dirname(os.path.abspath(importer))
        while True:
            listing = self._listing(folder) or frozenset()
            if folder not in searched:
                if listing.intersection(heads):
                    found = self._under(folder, name, relative)
                    if found is not None:
                        return found
                else:
                    # These paths, not the folder's time: a folder far up (/tmp, a home) changes all the time.
                    self.consulted.update(os.path.join(folder, entry) for entry in heads)
            self.consulted.update(os.path.join(folder, marker) for marker in _PROJECT_MARKERS)
            parent = os.path.dirname(folder)
            if listing & _PROJECT_MARKERS or parent == folder:
                return None
            folder = parent

    def _under(self, root: str, name: str, relative: str) -> ModuleSummary | None:
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
                return self._load_for(name, candidate)
        return None


    def _listing(self, root: str) -> frozenset[str] | None:
        found = self._listings.get(root)
        if found is None:
            try:
                found = self._listings[root] = frozenset(os.listdir(root))
            except OSError:
                return None
        return found


def search_roots_for(settings: Settings, paths: list[str]) -> list[str]:
    """Where namespace packages are looked for: the project's folder, its ``src/``, and the folders linted."""
    root = str(settings.project_root)
    found = [root, os.path.join(root, "src")]
    found.extend(os.path.abspath(p) for p in paths if os.path.isdir(p))
    return [f for f in found if os.path.isdir(f)]


def excluder_for(settings: Settings) -> Excluder:
    ignore_files = IgnoreFiles() if settings.respect_gitignore else None
    return Excluder(tuple(settings.exclude) + tuple(settings.extend_exclude), settings.project_root, ignore_files)


def analyze(
    summaries: list[ModuleSummary], settings: Settings, use_noqa: bool = True, loader: ModuleLoader | None = None,
    sources: Mapping[str, bytes] | None = None, summarize: Callable[[str], ModuleSummary] = summarize_path,
) -> list[Diagnostic]:
    """Findings in ``summaries``, and in files of the run the prefilter skipped (``loader.unchecked``).

    ``summarize`` reads the modules they import (an editor passes one that prefers its unsaved buffers).
    """
    rules = rules_for(settings)
    loader = loader or ModuleLoader(summaries, summarize=summarize, search_roots=search_roots_for(settings, []))
    analysis = new_analysis(summaries, settings, loader)
    seed_sources(analysis, sources)  # fixes are made from this text, not from the file on disk
    findings = [module_findings(analysis, rules, summary, loader.load) for summary in summaries]
    return final_findings(findings, rules, settings, use_noqa, reportable=loader.unchecked.__contains__)


def rules_for(settings: Settings) -> list[Rule]:
    return [rule() for rule in selected_rules(settings)]


def new_analysis(summaries: list[ModuleSummary], settings: Settings, loader: ModuleLoader) -> Analysis:
    return Analysis(summaries, settings.target_version or NEWEST, loader=loader, target_python=settings.target_python)


def module_findings(
    analysis: Analysis, rules: list[Rule], summary: ModuleSummary, summary_of: Callable[[str], ModuleSummary]
) -> ModuleFindings:
    """Every selected rule's findings in one reported module, unsuppressed."""
    diagnostics = tuple(diagnostic for rule in rules for diagnostic in rule_findings(rule, analysis, summary))
    elsewhere = dict.fromkeys(d.path for d in diagnostics if d.path != summary.path)
    pointed_into = tuple(ReportedFile.of(summary_of(path)) for path in elsewhere)
    return ModuleFindings(ReportedFile.of(summary), diagnostics, pointed_into)


def rule_findings(rule: Rule, analysis: Analysis, summary: ModuleSummary) -> Iterator[Diagnostic]:
    """``rule``'s findings in one module; a rule that fails there becomes that module's STP900 finding.

    The findings it made before it failed stand; the other modules and rules
    are not affected.
    """
    try:
        yield from rule.check(analysis, summary)
    except (RecursionError, MemoryError, Exception) as exc:
        reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        message = (
            f"cannot analyze this file: internal error in {rule.code} ({reason}); "
            f"its {rule.code} findings may be incomplete, please report it"
        )
        yield analysis.diagnostic(summary, Span(1, 0, 1, 0), SyntaxErrorRule, message)
