"""STP100's findings: the ``# noqa`` codes that silenced nothing, judged after every other finding was suppressed.

A file-level ``# ruff: noqa: CODES`` (``# flake8:``, ``# steplint:``) is judged
the same way over the whole file; a bare one, like a bare ``# noqa``, never is.

The report stage never calls a rule: the facts (which codes of each
``# noqa`` silenced nothing) come from ``FileSuppressions``, and the finding
takes its code, name and severity from the selected suppression rule's class
attributes, as ruff's RUF100 lives in its noqa checking rather than in a rule.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from steplint.catalog.registry import all_codes
from steplint.core.diagnostics import Diagnostic, Fix
from steplint.core.findings import ReportedFile
from steplint.fixes.noqa_edits import remove_codes_edit
from steplint.report.suppression import FileSuppressions
from steplint.rules.base import Rule, SuppressionRule

_OWN_PREFIX = "STP"


def unused_noqa_findings(
    rules: Iterable[Rule], reported: Iterable[ReportedFile], files: dict[str, FileSuppressions]
) -> Iterator[Diagnostic]:
    """The findings of the selected suppression rules, themselves silenceable like any other."""
    rules = list(rules)
    selected = frozenset(rule.code for rule in rules)
    known = tuple(all_codes())
    for rule in rules:
        if not isinstance(rule, SuppressionRule):
            continue
        for module in reported:
            if module.broken:
                continue  # no rule ran on a broken file: every noqa in it would look unused
            file = files[module.path]
            judged = (
                *_unused_noqa(rule, module, file.unused_noqa_codes(), selected, known, file_level=False),
                *_unused_noqa(rule, module, file.unused_file_noqa_codes(), selected, known, file_level=True),
            )
            yield from (diagnostic for diagnostic in judged if not file.silences(diagnostic))


def _unused_noqa(
    rule: SuppressionRule,
    module: ReportedFile,
    unused_noqa: list[tuple[int, tuple[str, ...]]],
    selected: frozenset[str],
    known: tuple[str, ...],
    file_level: bool,
) -> Iterator[Diagnostic]:
    """One finding per ``# noqa`` (``file_level``: per ``# ruff: noqa: CODES``) whose steplint codes name no rule,
    or name rules that all ran and found nothing (on its line; in the file)."""
    spans = module.suppressions.file_noqa_spans if file_level else module.suppressions.noqa_spans
    for line, codes in unused_noqa:
        unknown = [code for code in codes if code.startswith(_OWN_PREFIX) and not _names_rules(code, known)]
        unused = [code for code in codes if code not in unknown and _all_ran(code, known, selected)]
        if not unknown and not unused:
            continue
        start, end = spans.get(line, (0, 0))
        text = module.suppressions.noqa_lines.get(line)
        edit = remove_codes_edit(text, line, (start, end), {*unused, *unknown}) if text is not None else None
        yield Diagnostic(
            path=module.path,
            line=line,
            column=start + 1,
            end_line=line,
            end_column=end + 1,
            code=rule.code,
            name=rule.name,
            severity=rule.severity,
            message=_message(unused, unknown, "in this file" if file_level else "on this line"),
            fix=Fix((edit,), safe=True, title="Remove the unused noqa codes") if edit is not None else None,
        )


def _names_rules(listed: str, known: tuple[str, ...]) -> list[str]:
    return [code for code in known if code.startswith(listed)]


def _all_ran(listed: str, known: tuple[str, ...], selected: frozenset[str]) -> bool:
    """A steplint code whose every rule ran: had there been a finding, it would have silenced it."""
    named = _names_rules(listed, known)
    return listed.startswith(_OWN_PREFIX) and bool(named) and all(code in selected for code in named)


def _message(unused: list[str], unknown: list[str], where: str) -> str:
    parts = []
    if unused:
        parts.append(f"{', '.join(unused)} silence{'s' if len(unused) == 1 else ''} nothing {where}")
    if unknown:
        parts.append(f"{', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not a steplint rule code")
    return f"unused noqa: {'; '.join(parts)}; remove {'it' if len(unused) + len(unknown) == 1 else 'them'}"
