"""What one module's check hands to the report stage: its findings and the comments that may silence them."""

from __future__ import annotations

from typing import NamedTuple

from steplint.core.diagnostics import Diagnostic
from steplint.core.summary import ModuleSummary, Suppressions


class ReportedFile(NamedTuple):
    """What suppression needs of a file: its path, its comments, and whether the rules could run on it."""

    path: str
    suppressions: Suppressions
    broken: bool

    @classmethod
    def of(cls, summary: ModuleSummary) -> "ReportedFile":
        return cls(summary.path, summary.suppressions, summary.error is not None)


class ModuleFindings(NamedTuple):
    """One reported module's findings before suppression, with the comments that may silence them.

    Findings depend only on the module and what its names resolve to, so these
    can be kept per module (``steplint.run.findings_store``) and reported with others.
    """

    file: ReportedFile  # the module itself: its comments, and STP100 is judged on them
    diagnostics: tuple[Diagnostic, ...]
    pointed_into: tuple[ReportedFile, ...]  # other files its findings point into (a step body defined there)
