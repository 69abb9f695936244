"""A lint run: files -> summaries -> project index -> rules -> suppression.

Every failure while reading or summarizing one file becomes that file's
STP900 finding; the rest of the run goes on.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, NamedTuple

from steplint.core import gc_pause as collector
from steplint.config.settings import Settings
from steplint.core.diagnostics import Diagnostic
from steplint.source.discovery import PYTHON_SUFFIXES, Excluder
from steplint.analysis.fix_builder import seed_sources
from steplint.analysis.program import Analysis
from steplint.source.module_identity import module_name
from steplint.source.reading import DEFAULT_MAX_FILE_SIZE, UnreadableSource, parse_bytes, read_source
from steplint.rules.base import Rule
from steplint.rules.stp900_syntax_error import SyntaxErrorRule
from steplint.catalog.selection import selected_rules
from steplint.core.deep_stack import call_deep
from steplint.summaries.builder import summarize
from steplint.core.summary import ModuleSummary, ParseError, Span
from steplint.report.suppression import FileSuppressions, ReportedFile, suppression_findings
from steplint.core.framework_versions import NEWEST

if TYPE_CHECKING:
    from steplint.run.cache import Cache


@dataclass
class RunResult:
    diagnostics: list[Diagnostic]
    files: int
    summaries: dict[str, ModuleSummary] = field(default_factory=dict)
    stats: object | None = None  # steplint.run.pipeline.RunStats of a run over paths


def summarize_source(data: bytes, path: str) -> ModuleSummary:
    """The summary of one file's bytes; never raises.

    Code nested deeper than the default recursion limit allows is summarized
    again on a deep stack (``steplint.core.deep_stack``), so a file CPython compiles is
    analyzed. Whatever still fails becomes the summary's error (STP900), with
    the reason: the other files' findings do not depend on it.
    """
    module, is_package = module_of(path)
    try:
        try:
            with collector.paused():
                return _summarize(data, path, module, is_package)
        except RecursionError:
            return call_deep(_summarize, data, path, module, is_package)
    except RecursionError:
        return _broken(path, module, is_package, "nesting too deep to analyze")
    except MemoryError:
        return _broken(path, module, is_package, "out of memory while analyzing this file")
    except Exception as exc:  # a bug in steplint must not hide the other files' findings
        return _broken(path, module, is_package, f"internal error while summarizing ({type(exc).__name__}: {exc}); please report it")


def _summarize(data: bytes, path: str, module: str, is_package: bool) -> ModuleSummary:
    return summarize(parse_bytes(data, path), path, module, is_package)


def summarize_path(path: str, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> ModuleSummary:
    """The summary of the file at ``path``; never raises, never blocks (FIFOs and devices are not read).

    A file that cannot be read, or holds more than ``max_size`` bytes (None or
    0: no limit), is a summary with the reason as its error (STP900).
    """
    return read_and_summarize(path, max_size)[1]


def read_and_summarize(path: str, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> tuple[bytes | None, ModuleSummary]:
    """The bytes read (None: they could not be) and their summary, as ``summarize_path`` makes it."""
    try:
        data = read_source(path, max_size)
    except UnreadableSource as exc:
        return None, _broken(path, *module_of(path), str(exc))
    except Exception as exc:  # e.g. a path the OS rejects outright
        return None, _broken(path, *module_of(path), f"cannot read: {exc}")
    return data, summarize_source(data, path)


def module_of(path: str) -> tuple[str, bool]:
    try:
        return module_name(path)
    except Exception:  # an odd path must still get its finding
        return Path(path).stem, False


def _broken(path: str, module: str, is_package: bool, reason: str) -> ModuleSummary:
    return ModuleSummary(path=path, module=module, is_package=is_package, error=ParseError(reason, 1, 0))


class ModuleLoader:
    """Finds and summarizes modules that reported files import, under their package roots.

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
                root = _package_root(summary)
                if root is not None and root not in self.roots:
                    self.roots.append(root)

    def load(self, path: str) -> ModuleSummary:
        absolute = os.path.abspath(path)
        found = self.known.get(absolute)
        if found is None:
            found = self.known[absolute] = self.summarize(path)
        return found

    def _load_for(self, name: str, path: str) -> ModuleSummary:
        self.loaded.setdefault(name, []).append(path)
        return self.load(path)

    def __call__(self, name: str) -> ModuleSummary | None:
        for path in self.discovered.get(name, ()):
            found = self._load_for(name, path)
            if found.error is None:
                return found
        relative = name.replace(".", os.sep)
        for root in self.roots:
            for candidate in (
                os.path.join(root, relative + ".py"),
                os.path.join(root, relative, "__init__.py"),
                os.path.join(root, relative + ".pyi"),
                os.path.join(root, relative, "__init__.pyi"),
            ):
                self.consulted.add(candidate)
                if os.path.isfile(candidate):
                    found = self._load_for(name, candidate)
                    return found if found.module == name else None
        return None


def _package_root(summary: ModuleSummary) -> str | None:
    depth = summary.module.count(".") + (1 if summary.is_package else 0)
    directory = os.path.dirname(os.path.abspath(summary.path))
    for _ in range(depth):
        directory = os.path.dirname(directory)
    return directory


def excluder_for(settings: Settings) -> Excluder:
    return Excluder(tuple(settings.exclude) + tuple(settings.extend_exclude), settings.project_root)


def lint_paths(
    paths: list[str],
    settings: Settings,
    force_exclude: bool = False,
    use_noqa: bool = True,
    *,
    jobs: int = 1,
    cache: "Cache | None" = None,
    prefilter: bool = True,
) -> RunResult:
    """Lint files and folders: ``jobs`` processes build summaries, ``cache`` remembers them.

    The prefilter skips files found in folders that cannot hold a finding
    (``steplint.run.prefilter``); files named in ``paths`` are always analyzed.
    """
    from steplint.run.pipeline import LintRun

    run = LintRun(settings, use_noqa=use_noqa, jobs=jobs, cache=cache, prefilter=prefilter)
    result = run.run(paths, force_exclude)
    result.stats = run.stats
    return result


def lint_source(data: bytes, path: str, settings: Settings, use_noqa: bool = True) -> RunResult:
    """Lint a buffer as the file ``path`` in its project (stdin, flake8, an editor's unsaved text)."""
    summary = summarize_source(data, path)
    return RunResult(analyze([summary], settings, use_noqa, sources={path: data}), 1, {path: summary})


def analyze(
    summaries: list[ModuleSummary], settings: Settings, use_noqa: bool = True, loader: ModuleLoader | None = None,
    sources: Mapping[str, bytes] | None = None,
) -> list[Diagnostic]:
    """Findings in ``summaries``, and in files of the run the prefilter skipped (``loader.unchecked``)."""
    rules = rules_for(settings)
    loader = loader or ModuleLoader(summaries)
    analysis = new_analysis(summaries, settings, loader)
    seed_sources(analysis, sources)  # fixes are made from this text, not from the file on disk
    findings = [module_findings(analysis, rules, summary, loader.load) for summary in summaries]
    return conclude(findings, rules, settings, use_noqa, reportable=loader.unchecked.__contains__)


class ModuleFindings(NamedTuple):
    """One reported module's findings before suppression, with the comments that may silence them.

    Findings depend only on the module and what its names resolve to, so these
    can be kept per module (``steplint.run.findings_store``) and concluded with others.
    """

    file: ReportedFile  # the module itself: its comments, and STP100 is judged on them
    diagnostics: tuple[Diagnostic, ...]
    landed: tuple[ReportedFile, ...]  # other files its findings point into (a step body defined there)


def rules_for(settings: Settings) -> list[Rule]:
    return [rule() for rule in selected_rules(settings)]


def new_analysis(summaries: list[ModuleSummary], settings: Settings, loader: ModuleLoader) -> Analysis:
    return Analysis(summaries, settings.target_version or NEWEST, loader=loader)


def module_findings(
    analysis: Analysis, rules: list[Rule], summary: ModuleSummary, summary_of: Callable[[str], ModuleSummary]
) -> ModuleFindings:
    """Every selected rule's findings in one reported module, unsuppressed."""
    diagnostics = tuple(diagnostic for rule in rules for diagnostic in checked(rule, analysis, summary))
    elsewhere = dict.fromkeys(d.path for d in diagnostics if d.path != summary.path)
    landed = tuple(ReportedFile.of(summary_of(path)) for path in elsewhere)
    return ModuleFindings(ReportedFile.of(summary), diagnostics, landed)


def conclude(
    findings: list[ModuleFindings], rules: list[Rule], settings: Settings, use_noqa: bool,
    reportable: Callable[[str], bool],
) -> list[Diagnostic]:
    """The run's findings: suppressions applied, STP100 judged, one per place, sorted.

    A finding that points into a file that is not reported is kept only when
    ``reportable`` says that file is part of the run (the prefilter skipped it).
    """
    silencers = {module.file.path: FileSuppressions(module.file, settings, use_noqa) for module in findings}
    found: set[Diagnostic] = set()
    for module in findings:
        elsewhere = {file.path: file for file in module.landed}
        for diagnostic in module.diagnostics:
            silencer = silencers.get(diagnostic.path)  # None: a module that is not reported
            if silencer is None and diagnostic.path in elsewhere and reportable(os.path.normpath(diagnostic.path)):
                silencer = silencers[diagnostic.path] = FileSuppressions(elsewhere[diagnostic.path], settings, use_noqa)
            if silencer is not None and not silencer.silences(diagnostic):
                found.add(diagnostic)
    found.update(suppression_findings(rules, [module.file for module in findings], silencers))
    return _one_per_place(sorted(found, key=Diagnostic.sort_key))


def checked(rule: Rule, analysis: Analysis, summary: ModuleSummary) -> Iterator[Diagnostic]:
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


def _one_per_place(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """A body shared by several steps (``a = step(f); b = step(f)``) is reported once per call."""
    kept: list[Diagnostic] = []
    seen: set[tuple[str, int, int, int, int, str]] = set()
    for d in diagnostics:
        place = (d.path, d.line, d.column, d.end_line, d.end_column, d.code)
        if place not in seen:
            seen.add(place)
            kept.append(d)
    return kept


def is_python_file(path: str) -> bool:
    return path.endswith(PYTHON_SUFFIXES)
