"""Where one parsed file's nodes are, in characters (``ast`` counts columns in UTF-8 bytes)."""

from __future__ import annotations

import ast

from steplint.core.summary import Span
from steplint.source.reading import ParsedSource


class Positions:
    """Spans of one parsed file's nodes, in characters."""

    __slots__ = ("parsed", "wide_lines")

    def __init__(self, parsed: ParsedSource):
        self.parsed = parsed
        # The lines (1-based) with a non-ASCII character: elsewhere ``ast``'s byte offsets are the columns.
        text = parsed.text
        self.wide_lines = frozenset() if text.isascii() else frozenset(
            number for number, line in enumerate(parsed.lines(), 1) if not line.isascii()
        )

    def span(self, node: ast.AST) -> Span:
        line = node.lineno  # type: ignore[attr-defined]
        end_line = getattr(node, "end_lineno", None) or line
        wide = self.wide_lines
        if not wide or (line not in wide and end_line not in wide):
            start = node.col_offset  # type: ignore[attr-defined]
            return Span(line, start, end_line, getattr(node, "end_col_offset", None) or start)
        column = self.parsed.column
        return Span(
            line,
            column(line, node.col_offset),  # type: ignore[attr-defined]
            end_line,
            column(end_line, getattr(node, "end_col_offset", None) or node.col_offset),  # type: ignore[attr-defined]
        )

    def def_span(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> Span:
        """From the ``def`` or ``class`` keyword to the end of the name."""
        start = self.span(node)
        text = self.parsed.line_text(node.lineno)
        name_at = text.find(node.name, start.col)
        end_col = name_at + len(node.name) if name_at >= 0 else start.col
        return Span(start.line, start.col, start.line, end_col)
