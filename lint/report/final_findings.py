"""The last stage: every module's findings, suppressed, with STP100 judged, one per place, sorted."""

from __future__ import annotations

import os
from typing import Callable

from steplint.config.settings import Settings
from steplint.core.diagnostics import Diagnostic
from steplint.core.findings import ModuleFindings
from steplint.report.suppression import FileSuppressions
from steplint.report.unused_noqa import unused_noqa_findings
from steplint.rules.base import Rule


def final_findings(
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
        elsewhere = {file.path: file for file in module.pointed_into}
        for diagnostic in module.diagnostics:
            silencer = silencers.get(diagnostic.path)  # None: a module that is not reported
            if silencer is None and diagnostic.path in elsewhere and reportable(os.path.normpath(diagnostic.path)):
                silencer = silencers[diagnostic.path] = FileSuppressions(elsewhere[diagnostic.path], settings, use_noqa)
            if silencer is not None and not silencer.silences(diagnostic):
                found.add(diagnostic)
    found.update(unused_noqa_findings(rules, [module.file for module in findings], silencers))
    return _one_per_place(sorted(found, key=Diagnostic.sort_key))


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
