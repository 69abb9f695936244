"""``--add-noqa``: silence every reported finding with a ``# noqa: CODE`` on its line, as ruff's ``--add-noqa``.

A line that already has a ``# noqa: ...`` gets the code added to it; a line
where a comment cannot go (it ends inside a multi-line string or with a
backslash) is left as it is, and counted. Syntax errors (STP900) and unused
noqa codes (STP100) are never silenced this way: a comment cannot fix either.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from steplint.catalog.registry import all_rules
from steplint.fixes.apply import apply_fixes
from steplint.fixes.noqa_edits import add_noqa_edit
from steplint.core.diagnostics import Diagnostic, Edit, Fix
from steplint.frontends.autofix import FixedFile
from steplint.source.reading import DecodeFailure, decode_keeping_encoding, readable_bytes
from steplint.summaries.suppression_comments import NOQA

NEVER_SILENCED = frozenset(rule.code for rule in all_rules() if not rule.silenced_by_add_noqa)


@dataclass
class NoqaOutcome:
    files: list[FixedFile] = field(default_factory=list)
    skipped: list[Diagnostic] = field(default_factory=list)  # no comment could go on their line

    @property
    def added(self) -> int:
        return sum(file.fixes for file in self.files)


def add_noqa(diagnostics: list[Diagnostic], sources: dict[str, bytes] | None = None) -> NoqaOutcome:
    """The files of ``diagnostics`` with a ``# noqa`` for each finding (in memory; ``write_fixed`` writes them)."""
    outcome = NoqaOutcome()
    by_path: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        if diagnostic.code not in NEVER_SILENCED:
            by_path.setdefault(diagnostic.path, []).append(diagnostic)
    for path, findings in by_path.items():
        data = (sources or {}).get(path)
        data = data if data is not None else readable_bytes(path)
        if data is None:
            outcome.skipped.extend(findings)
            continue
        try:
            original, encoding = decode_keeping_encoding(data)
        except DecodeFailure:
            outcome.skipped.extend(findings)
            continue
        text, added = original, Counter()
        for finding in sorted(findings, key=Diagnostic.sort_key):
            edit = add_noqa_edit(text, finding.line, finding.code)
            if edit is None:
                if not _silenced(text, finding):
                    outcome.skipped.append(finding)
                continue
            text = apply_fixes(text, [_with_fix(finding, edit)])
            added[finding.code] += 1
        if text != original:
            outcome.files.append(FixedFile(path, original, text, encoding, added))
    return outcome


def _silenced(text: str, finding: Diagnostic) -> bool:
    """Whether the line already silences the finding's code (a second finding of one code on one line)."""
    lines = text.splitlines()
    if not 1 <= finding.line <= len(lines):
        return False
    match = NOQA.search(lines[finding.line - 1])
    if match is None:
        return False
    codes = match.group("codes")
    return codes is None or finding.code in {c.upper() for c in codes.replace(",", " ").split()}


def _with_fix(finding: Diagnostic, edit: Edit) -> Diagnostic:
    return replace(finding, fix=Fix((edit,), True, "add noqa"))

