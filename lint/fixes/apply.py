"""Applying fixes to a text: the one place every caller goes through (``--fix``, ``--add-noqa``, the editor's fix-all)."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from steplint.core.diagnostics import Diagnostic, Edit
from steplint.fixes.positions import edit_offsets, line_starts

_Replacement = tuple[int, int, str]  # start offset, end offset, new text


def fixable(diagnostics: Iterable[Diagnostic], unsafe: bool = False) -> list[Diagnostic]:
    """The findings whose fix applies: the safe ones, and the unsafe ones too when asked."""
    return [d for d in diagnostics if d.fix is not None and d.fix.edits and (d.fix.safe or unsafe)]


def without_fixes_of(diagnostics: list[Diagnostic], unfixable: tuple[str, ...]) -> list[Diagnostic]:
    """``unfixable`` (codes or prefixes, ``ALL``): their findings lose their fix, so nothing offers or applies it."""
    if not unfixable:
        return diagnostics
    prefixes = tuple("" if code.upper() in ("ALL", "*") else code.upper() for code in unfixable)
    return [replace(d, fix=None) if d.fix is not None and d.code.startswith(prefixes) else d for d in diagnostics]


def apply_fixes(text: str, diagnostics: Iterable[Diagnostic]) -> str:
    """``text`` with the fixes of ``diagnostics`` applied (all of them: choose with ``fixable``).

    A fix whose edits overlap an earlier one's is left out (lint again and
    apply again, as ``--fix`` does); a fix pointing outside the text is
    ignored.
    """
    return apply_fixes_counted(text, diagnostics)[0]


def apply_fixes_counted(text: str, diagnostics: Iterable[Diagnostic]) -> tuple[str, list[str]]:
    """``apply_fixes``, and the codes of the findings whose fixes went in (one per finding)."""
    starts = line_starts(text)
    taken: list[_Replacement] = []
    applied: list[str] = []
    seen: set[tuple[Edit, ...]] = set()
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        fix = diagnostic.fix
        if fix is None or not fix.edits:
            continue
        if fix.edits in seen:  # two findings of one place share a fix
            applied.append(diagnostic.code)
            continue
        replacements = [_replacement(starts, text, edit) for edit in fix.edits]
        valid = [r for r in replacements if r is not None]
        if len(valid) < len(replacements) or any(_overlaps(r, other) for r in valid for other in taken):
            continue
        taken.extend(valid)
        seen.add(fix.edits)
        applied.append(diagnostic.code)
    for start, end, replacement in sorted(taken, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text, applied


def _replacement(starts: list[int], text: str, edit: Edit) -> _Replacement | None:
    offsets = edit_offsets(starts, text, edit)
    return None if offsets is None else (*offsets, edit.replacement)


def _overlaps(a: _Replacement, b: _Replacement) -> bool:
    if a[0] == a[1] == b[0] == b[1]:
        return True  # two insertions at one place: their order would be a guess
    return a[0] < b[1] and b[0] < a[1]
