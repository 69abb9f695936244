"""One analysis: the selected rules over reported modules, their imports loaded as the import system would.

Every run puts its analysis together here: a lint over paths in this process
(``steplint.run.pipeline``) or in worker processes (``steplint.run.checking_workers``),
a buffer (``steplint.api.lint_source``), a graph (``steplint.run.graph_run``).
So the promise that findings do not depend on jobs, prefilter or cache rests
on one loader and one index, made from the same inputs: the settings, the
run's files by module name, the roots and the search roots. Whatever fails in
one rule on one module becomes that module's STP900 finding.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Callable, Mapping

from steplint.fixes.source_texts import seed_sources
from steplint.analysis.program import Analysis
from steplint.catalog.selection import selected_rules
from steplint.config.release_targets import ReleaseTargets
from steplint.config.settings import Settings
from steplint.core.diagnostics import Diagnostic
from steplint.core.findings import ModuleFindings, ReportedFile
from steplint.core.framework_versions import NEWEST
from steplint.core.summary import ModuleSummary, Span
from steplint.report.final_findings import final_findings
from steplint.run.epochs import findings_over_releases
from steplint.rules.base import Rule
from steplint.rules.stp900_syntax_error import SyntaxErrorRule
from steplint.source.import_search import search_roots_for
from steplint.summaries.file_summary import summarize_path
from steplint.summaries.module_loader import ModuleLoader


@dataclass
class Resolution:
    """What resolving the checked modules' names consulted: the run cache keeps findings by it."""

    edges: dict[str, set[str]]  # module name -> the names resolution inside it asked for (``ProjectIndex.edges``)
    loaded: dict[str, list[str]]  # module name asked for -> the files read for it
    consulted: set[str]  # other paths whose content or absence shaped an answer

    def merge(self, other: "Resolution") -> None:
        for name, asked in other.edges.items():
            self.edges.setdefault(name, set()).update(asked)
        for name, loaded in other.loaded.items():
            self.loaded.setdefault(name, []).extend(loaded)
        self.consulted |= other.consulted


class Checking:
    """The rules, the loader and the index of one analysis; each reported module's findings from them.

    ``summaries`` are the reported modules known up front. ``discovered`` maps
    module names to the run's other files (they answer first, in discovery
    order, as they would as reported files); ``roots`` are the folders above
    the run's packages (default: those of ``summaries``); ``search_roots`` are
    where namespace packages are looked for; ``summarize`` reads any other module.
    """

    def __init__(
        self, settings: Settings, summaries: list[ModuleSummary] | None = None, *,
        roots: list[str] | None = None, discovered: dict[str, list[str]] | None = None,
        search_roots: list[str] | None = None, summarize: Callable[[str], ModuleSummary] = summarize_path,
    ):
        self.settings = settings
        self.rules = rules_for(settings)
        summaries = summaries or []
        self.loader = ModuleLoader(summaries, roots, discovered, summarize, search_roots)
        self.analysis = Analysis(summaries, settings.target_version or NEWEST, loader=self.loader,
                                 target_python=settings.target_python, io_functions=settings.io_functions)
        self.targets = ReleaseTargets(settings)

    def findings(self, summary: ModuleSummary) -> ModuleFindings:
        """Every selected rule's findings in one reported module, unsuppressed, over every release its target admits."""
        releases = self.targets.for_path(summary.path).releases
        found = tuple(
            diagnostic for rule in self.rules
            for diagnostic in findings_over_releases(rule, self.analysis, summary, releases, rule_findings)
        )
        elsewhere = dict.fromkeys(d.path for d in found if d.path != summary.path)
        pointed_into = tuple(ReportedFile.of(self.loader.load(path)) for path in elsewhere)
        return ModuleFindings(ReportedFile.of(summary), found, pointed_into)

    def check(self, path: str) -> tuple[ModuleSummary, ModuleFindings]:
        """The findings of the run file at ``path``, loaded now unless an earlier module imported it."""
        summary = self.loader.load(path)  # then it is checked on the very summary the index holds
        if summary.error is None:
            self.analysis.index.module(summary.module, summary.module)  # the name's first file takes it
            self.analysis.index.add(summary)
        return summary, self.findings(summary)

    def resolution(self) -> Resolution:
        return Resolution(self.analysis.index.edges, self.loader.loaded, self.loader.consulted)

    def take_resolution(self) -> Resolution:
        """What resolution consulted since the last call (a worker answers per share)."""
        edges, self.analysis.index.edges = self.analysis.index.edges, {}
        return Resolution(edges, *self.loader.take_resolution())

    def concluded(self, findings: list[ModuleFindings], use_noqa: bool,
                  reportable: Callable[[str], bool]) -> list[Diagnostic]:
        """Suppression, STP100 and one finding per place, over every module's findings."""
        return final_findings(findings, self.rules, self.settings, use_noqa, reportable=reportable)


def analyze(
    summaries: list[ModuleSummary], settings: Settings, use_noqa: bool = True,
    sources: Mapping[str, bytes] | None = None, summarize: Callable[[str], ModuleSummary] = summarize_path,
) -> list[Diagnostic]:
    """The concluded findings in ``summaries``, the modules they import loaded from disk (or by ``summarize``).

    An editor passes a ``summarize`` that prefers its unsaved buffers.
    """
    checking = Checking(settings, summaries, summarize=summarize, search_roots=search_roots_for(settings, []))
    seed_sources(checking.analysis, sources)  # fixes are made from this text, not from the file on disk
    checking.loader.texts.update((os.path.abspath(path), data) for path, data in (sources or {}).items())
    findings = [checking.findings(summary) for summary in summaries]
    return checking.concluded(findings, use_noqa, reportable=checking.loader.unchecked.__contains__)


def rules_for(settings: Settings) -> list[Rule]:
    return [rule() for rule in selected_rules(settings)]


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
