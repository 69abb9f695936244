"""What a run returns: the findings, how many files, and what the run did (for tests and ``--verbose``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from steplint.core.diagnostics import Diagnostic
from steplint.core.summary import ModuleSummary


@dataclass
class RunStats:
    """What a run did: counts, never timings."""

    discovered: int = 0
    read: int = 0  # source files whose bytes were read
    summarized: int = 0  # files parsed and summarized
    syntax_checked: int = 0  # skipped files parsed only to find syntax errors (STP900)
    checked: int = 0  # files reported (the prefilter's candidates)
    analyzed: int = 0  # reported files the rules ran on (the others' findings were kept from an earlier run)
    replayed: bool = False  # the findings came from the run cache
    release_targets: tuple = ()  # the distinct ReleaseTargets of the linted folders (steplint.config.project_version)


@dataclass
class RunResult:
    diagnostics: list[Diagnostic]
    files: int
    summaries: dict[str, ModuleSummary] = field(default_factory=dict)
    stats: RunStats | None = None  # for a run over paths
