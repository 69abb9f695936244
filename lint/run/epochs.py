"""A rule over every release a file's target admits: once per semantic epoch, findings merged.

A version-dependent rule (``Rule.version_dependent``) runs once per epoch the
target admits (``steplint.core.framework_versions.EPOCHS``), on the one shared
analysis with ``analysis.target_version`` set to the newest admitted release of
that epoch; any other rule runs once, at the newest admitted release. Findings
are merged per place (path, span, code), as the report keeps one per place:

- reported on every admitted release with one message: that finding, unchanged;
- reported on some releases only: its message starts with them ("on 1.20-1.26: ..."),
  and a message that differs only in the release it names (the epoch's own) is one story;
- told differently on different epochs: the newest epoch's finding (its message,
  chain and fix) names its releases, says which other releases it bites on,
  and takes the most severe severity any epoch gave.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from steplint.analysis.program import Analysis
from steplint.core.diagnostics import ERROR, WARNING, Diagnostic
from steplint.core.framework_versions import Version, describe_releases, epoch_of, format_version, short_version
from steplint.core.summary import ModuleSummary
from steplint.rules.base import Rule

RuleRun = Callable[[Rule, Analysis, ModuleSummary], Iterator[Diagnostic]]
Place = tuple[str, int, int, int, int, str]
_SEVERITY_RANK = {WARNING: 0, ERROR: 1}


def admitted_epochs(releases: Iterable[Version]) -> list[tuple[Version, ...]]:
    """The admitted releases grouped by epoch, oldest epoch first."""
    groups: dict[Version, list[Version]] = {}
    for release in sorted(set(releases)):
        groups.setdefault(epoch_of(release).first, []).append(release)
    return [tuple(group) for _, group in sorted(groups.items())]


@contextmanager
def targeting(analysis: Analysis, version: Version) -> Iterator[Analysis]:
    """The shared analysis seen from one release: nothing it memoizes depends on the target."""
    before, analysis.target_version = analysis.target_version, version
    try:
        yield analysis
    finally:
        analysis.target_version = before


def findings_over_releases(
    rule: Rule, analysis: Analysis, summary: ModuleSummary, releases: tuple[Version, ...], run: RuleRun
) -> list[Diagnostic]:
    """``rule``'s findings in ``summary`` for every release in ``releases`` (oldest first)."""
    epochs = admitted_epochs(releases) if rule.version_dependent else [tuple(releases)]
    if len(epochs) == 1:
        with targeting(analysis, epochs[0][-1]):
            return list(run(rule, analysis, summary))
    per_epoch: list[tuple[tuple[Version, ...], list[Diagnostic]]] = []
    for admitted in epochs:
        with targeting(analysis, admitted[-1]):
            per_epoch.append((admitted, list(run(rule, analysis, summary))))
    return merged(per_epoch)


def merged(per_epoch: list[tuple[tuple[Version, ...], list[Diagnostic]]]) -> list[Diagnostic]:
    """One finding per place over the epochs' findings (oldest epoch first), naming where it bites."""
    admitted = tuple(release for releases, _ in per_epoch for release in releases)
    places: dict[Place, list[tuple[tuple[Version, ...], Diagnostic]]] = {}
    for releases, diagnostics in per_epoch:
        first_here: dict[Place, Diagnostic] = {}
        for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
            first_here.setdefault(_place(diagnostic), diagnostic)  # the one the report would keep
        for place, diagnostic in first_here.items():
            places.setdefault(place, []).append((releases, diagnostic))
    return [_one_finding(reports, admitted) for reports in places.values()]


def _one_finding(reports: list[tuple[tuple[Version, ...], Diagnostic]], admitted: tuple[Version, ...]) -> Diagnostic:
    newest_releases, newest = reports[-1]
    biting = tuple(release for releases, _ in reports for release in releases)
    severity = max((d.severity for _, d in reports), key=lambda s: _SEVERITY_RANK.get(s, 0))
    story = _stories(newest.message, newest_releases[-1])
    if all(_stories(d.message, releases[-1]) & story for releases, d in reports):
        if biting == admitted:
            return _replace(newest, severity, newest.message)
        return _replace(newest, severity, f"on {describe_releases(biting)}: {newest.message}")
    others = tuple(release for releases, _ in reports[:-1] for release in releases)
    message = (
        f"on {describe_releases(newest_releases)}: {newest.message} (it bites on {describe_releases(others)} too, "
        f"told differently: --target-version {short_version(others[-1])} shows how)"
    )
    return _replace(newest, severity, message)


def _stories(message: str, release: Version) -> set[str]:
    """A message with the release it was told for left out: naming another release is not another story.

    Two readings: the full release left out ("1.14.0"), and the short one too ("1.14"), since a short one may
    be the epoch's own or a boundary the message names ("since 1.14"), which only the first reading keeps.
    """
    stories = set()
    for shown in ((format_version(release),), (format_version(release), short_version(release))):
        told = message
        for text in shown:
            told = re.sub(rf"(?<![\d.]){re.escape(text)}(?![\d]|\.\d)", "{release}", told)
        stories.add(told)
    return stories


def _place(diagnostic: Diagnostic) -> Place:
    return (diagnostic.path, diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column, diagnostic.code)


def _replace(diagnostic: Diagnostic, severity: str, message: str) -> Diagnostic:
    if severity == diagnostic.severity and message == diagnostic.message:
        return diagnostic
    return Diagnostic(
        diagnostic.path, diagnostic.line, diagnostic.column, diagnostic.end_line, diagnostic.end_column,
        diagnostic.code, diagnostic.name, severity, message, diagnostic.chain, diagnostic.fix,
    )
