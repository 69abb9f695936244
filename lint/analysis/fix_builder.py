"""Fixes, the ruff model: a finding may carry a ``Fix`` (text edits, safe or unsafe).

A rule makes its fix with ``rewrite_call``: a libcst transformation of the
reported call's own source, so the formatting and comments inside it survive,
turned into the smallest text edit that has the same effect (``tick(x)`` ->
``tick.__wrapped__(x)`` is one insertion). Edits are plain data, so an editor
can offer them as code actions, and ``apply_fixes`` applies them to any text
that the findings were made from (a file, an unsaved buffer).

Only the reported call is parsed, never the whole module, and libcst is only
imported then: fixes cost nothing in files without fixable findings.
``call_attribute`` (``tick(x)`` -> ``tick.__wrapped__(x)``) edits a call
written plainly as ``callee(...)`` as text, without libcst, to the same edit.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Callable, Iterable, Mapping

from steplint.core.diagnostics import Diagnostic, Edit, Fix
from steplint.source.reading import decode_source
from steplint.summaries.builder import dotted_name as ast_dotted_name
from steplint.core.summary import ModuleSummary, Span

if TYPE_CHECKING:
    import libcst as cst

    from steplint.analysis.program import Analysis

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # as steplint.source.reading counts lines


class SourceTexts:
    """The text of each reported file, for rules that build fixes (an ``Analysis`` service).

    Text linted from memory (stdin, an editor buffer, a fix round) is seeded
    by the engine; anything else is read from disk once, when first needed.
    """

    def __init__(self, analysis: "Analysis | None" = None):
        self._data: dict[str, bytes] = {}
        self._texts: dict[str, str | None] = {}

    def seed(self, sources: Mapping[str, bytes]) -> None:
        self._data.update(sources)
        for path in sources:
            self._texts.pop(path, None)

    def text(self, path: str) -> str | None:
        if path not in self._texts:
            self._texts[path] = self._read(path)
        return self._texts[path]

    def _read(self, path: str) -> str | None:
        data = self._data.get(path)
        try:
            if data is None:
                with open(path, "rb") as handle:
                    data = handle.read()
            return decode_source(data)
        except (OSError, ValueError):
            return None


def rewrite_call(
    text: str | None,
    span: Span,
    callee: str,
    transform: Callable[["cst.Call"], "cst.BaseExpression"],
    *,
    title: str,
    safe: bool,
) -> Fix | None:
    """The fix that replaces the call at ``span`` by ``transform(call)``, or None.

    ``callee`` is the dotted name the rule saw called there: when the text no
    longer holds that call (it changed since it was summarized), there is no fix.
    """
    if text is None:
        return None
    import libcst as cst

    snippet = text_between(text, span)
    if snippet is None:
        return None
    try:
        call = cst.parse_expression(snippet)
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        return None
    if not isinstance(call, cst.Call) or dotted_name(call.func) != callee:
        return None
    replacement = cst.Module(body=()).code_for_node(transform(call))
    edit = smallest_edit(snippet, replacement, span.line, span.col)
    return Fix((edit,), safe=safe, title=title) if edit is not None else None


def call_attribute(
    text: str | None, span: Span, callee: str, attribute: str, *, title: str, safe: bool
) -> Fix | None:
    """The fix that calls ``callee.attribute`` instead of ``callee`` at ``span`` (``tick(x)`` -> ``tick.__wrapped__(x)``).

    A call written exactly ``callee(...)`` (nearly every one) is edited as
    text: libcst would print the same characters around the inserted
    attribute, and parsing the call with it costs a millisecond and its import
    a third of a second. Any other spelling (spaces, parentheses or comments
    around the callee, a changed text) takes ``rewrite_call``'s libcst path.
    """
    snippet = text_between(text, span) if text is not None else None
    if snippet is not None and is_plain_call(snippet, callee):
        edit = smallest_edit(snippet, f"{callee}.{attribute}{snippet[len(callee):]}", span.line, span.col)
        return Fix((edit,), safe=safe, title=title) if edit is not None else None
    return rewrite_call(text, span, callee, partial(with_attribute, attribute), title=title, safe=safe)


def is_plain_call(snippet: str, callee: str) -> bool:
    """``snippet`` is one call whose callee is exactly the text ``callee``, followed by the call's parentheses.

    Not with a carriage return: libcst prints the call's other line breaks as
    ``\n``, and the text path must not fix what that path would not.
    """
    if not (snippet.startswith(callee) and snippet[len(callee) : len(callee) + 1] == "(" and snippet.endswith(")")):
        return False
    if "\r" in snippet:
        return False
    try:
        call = ast.parse(snippet, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    func = call.func if isinstance(call, ast.Call) else None
    return (
        isinstance(func, (ast.Name, ast.Attribute))
        and (func.end_lineno, func.end_col_offset) == (1, len(callee.encode("utf-8")))
        and ast_dotted_name(func) == callee
    )


def with_attribute(attribute: str, call: "cst.Call") -> "cst.Call":
    import libcst as cst

    return call.with_changes(func=cst.Attribute(value=call.func, attr=cst.Name(attribute)))


def dotted_name(node: "cst.BaseExpression") -> str | None:
    """``a.b.c`` for a Name/Attribute chain (whatever the spaces, parentheses and comments), else None."""
    import libcst as cst

    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr.value}" if base is not None else None
    return None


def text_between(text: str, span: Span) -> str | None:
    """The source text of ``span`` (1-based lines, 0-based character columns)."""
    starts = line_starts(text)
    if not (1 <= span.line <= span.end_line <= len(starts)):
        return None
    return text[starts[span.line - 1] + span.col : starts[span.end_line - 1] + span.end_col]


def line_starts(text: str) -> list[int]:
    """The offset where each line starts (line breaks of any style, as ``steplint.source.reading`` counts them)."""
    return list(_line_starts(text))


@lru_cache(maxsize=8)
def _line_starts(text: str) -> tuple[int, ...]:
    # Every fix in a file asks for the same text's line starts: compute them once (str caches its hash).
    return (0, *(match.end() for match in _LINE_BREAK.finditer(text)))


def smallest_edit(old: str, new: str, line: int, column: int) -> Edit | None:
    """The one edit turning ``old`` (which starts at 1-based ``line``, 0-based ``column``) into ``new``."""
    if old == new:
        return None
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    start = _advance(old[:prefix], line, column)
    end = _advance(old[: len(old) - suffix], line, column)
    return Edit(start[0], start[1] + 1, end[0], end[1] + 1, new[prefix : len(new) - suffix])


def _advance(text: str, line: int, column: int) -> tuple[int, int]:
    """The (line, 0-based column) reached after ``text`` when it starts at (line, column)."""
    breaks = list(_LINE_BREAK.finditer(text))
    if not breaks:
        return line, column + len(text)
    return line + len(breaks), len(text) - breaks[-1].end()


# --- applying ---------------------------------------------------------------------------------------


def fixable(diagnostics: Iterable[Diagnostic], unsafe: bool = False) -> list[Diagnostic]:
    """The findings whose fix applies: the safe ones, and the unsafe ones too when asked."""
    return [d for d in diagnostics if d.fix is not None and d.fix.edits and (d.fix.safe or unsafe)]


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
    taken: list[tuple[int, int, str]] = []
    applied: list[str] = []
    seen: set[tuple[Edit, ...]] = set()
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        fix = diagnostic.fix
        if fix is None or not fix.edits:
            continue
        if fix.edits in seen:  # two findings of one place share a fix
            applied.append(diagnostic.code)
            continue
        ranges = [_range(starts, text, edit) for edit in fix.edits]
        valid = [r for r in ranges if r is not None]
        if len(valid) < len(ranges) or any(_overlaps(r, other) for r in valid for other in taken):
            continue
        taken.extend(valid)
        seen.add(fix.edits)
        applied.append(diagnostic.code)
    for start, end, replacement in sorted(taken, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text, applied


def _range(starts: list[int], text: str, edit: Edit) -> tuple[int, int, str] | None:
    if not (1 <= edit.line <= edit.end_line <= len(starts)):
        return None
    start = starts[edit.line - 1] + edit.column - 1
    end = starts[edit.end_line - 1] + edit.end_column - 1
    if not (0 <= start <= end <= len(text)):
        return None
    return start, end, edit.replacement


def _overlaps(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    if a[0] == a[1] == b[0] == b[1]:
        return True  # two insertions at one place: their order would be a guess
    return a[0] < b[1] and b[0] < a[1]


def seed_sources(analysis: "Analysis", sources: Mapping[str, bytes] | None) -> None:
    """Give the fixes of ``analysis`` the bytes that were linted from memory (stdin, an editor buffer)."""
    if sources:
        analysis.service(SourceTexts).seed(sources)


def source_text(analysis: "Analysis", module: ModuleSummary) -> str | None:
    """The text ``module`` was summarized from, for building a fix."""
    return analysis.service(SourceTexts).text(module.path)
