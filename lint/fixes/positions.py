"""Positions in a text: 1-based lines of any line-break style, as ``steplint.source.reading`` counts them."""

from __future__ import annotations

from functools import lru_cache

from steplint.core.diagnostics import Edit
from steplint.core.summary import Span
from steplint.source.python_parse import LINE_BREAK


def line_starts(text: str) -> list[int]:
    """The offset where each line starts."""
    return list(_line_starts(text))


@lru_cache(maxsize=8)
def _line_starts(text: str) -> tuple[int, ...]:
    # Every fix in a file asks for the same text's line starts: compute them once (str caches its hash).
    return (0, *(match.end() for match in LINE_BREAK.finditer(text)))


def text_between(text: str, span: Span) -> str | None:
    """The source text of ``span`` (1-based lines, 0-based character columns)."""
    starts = line_starts(text)
    if not (1 <= span.line <= span.end_line <= len(starts)):
        return None
    return text[starts[span.line - 1] + span.col : starts[span.end_line - 1] + span.end_col]


def position_after(text: str, line: int, column: int) -> tuple[int, int]:
    """The (line, 0-based column) reached after ``text`` when it starts at (line, column)."""
    breaks = list(LINE_BREAK.finditer(text))
    if not breaks:
        return line, column + len(text)
    return line + len(breaks), len(text) - breaks[-1].end()


def edit_offsets(starts: list[int], text: str, edit: Edit) -> tuple[int, int] | None:
    """The (start, end) offsets ``edit`` replaces in ``text`` (whose ``line_starts`` are ``starts``), or None outside it."""
    if not (1 <= edit.line <= edit.end_line <= len(starts)):
        return None
    start = starts[edit.line - 1] + edit.column - 1
    end = starts[edit.end_line - 1] + edit.end_column - 1
    if not (0 <= start <= end <= len(text)):
        return None
    return start, end
