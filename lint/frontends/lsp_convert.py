"""steplint's positions, findings and edits in the Language Server Protocol's terms.

steplint counts 1-based lines and 1-based character columns; LSP counts
0-based lines and 0-based columns in the units the client negotiated
(UTF-16 code units unless it offered another encoding).
"""

from __future__ import annotations

import re

from lsprotocol import types
from pygls.workspace import PositionCodec

from steplint.catalog.registry import rule_for
from steplint.core.diagnostics import Diagnostic, Edit
from steplint.summaries.suppression_comments import NOQA

SOURCE = "steplint"
LINE_BREAK = re.compile(r"\r\n|\r|\n")  # how steplint counts lines (steplint.source.reading)
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}
_CODE = re.compile(r"[A-Za-z]+[0-9]+")


def position(lines: list[str], line: int, column: int, codec: PositionCodec) -> types.Position:
    """steplint's 1-based line and 1-based character column, as a 0-based LSP position in the client's units."""
    index = max(line - 1, 0)
    if index >= len(lines):
        return types.Position(line=len(lines), character=0)
    text = lines[index]
    return types.Position(line=index, character=codec.client_num_units(text[: max(column - 1, 0)]))


def to_lsp(d: Diagnostic, lines: list[str], codec: PositionCodec, severity: str | None = None) -> types.Diagnostic:
    """The finding as an LSP diagnostic; ``severity`` (the editor's mapping) replaces the rule's own."""
    rule = rule_for(d.code)
    return types.Diagnostic(
        range=types.Range(start=position(lines, d.line, d.column, codec), end=position(lines, d.end_line, d.end_column, codec)),
        severity=SEVERITY.get(severity or d.severity, types.DiagnosticSeverity.Information),
        code=d.code,
        code_description=types.CodeDescription(href=rule.help_uri()) if rule is not None else None,
        source=SOURCE,
        message=d.message,
    )


def text_edit(edit: Edit, lines: list[str], codec: PositionCodec) -> types.TextEdit:
    return types.TextEdit(
        range=types.Range(
            start=position(lines, edit.line, edit.column, codec),
            end=position(lines, edit.end_line, edit.end_column, codec),
        ),
        new_text=edit.replacement,
    )


def whole_document(lines: list[str], new_text: str) -> types.TextEdit:
    """One edit that replaces the document (what ``source.fixAll`` sends, as ruff's server does)."""
    return types.TextEdit(
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=len(lines), character=0)),
        new_text=new_text,
    )


def touches(found: types.Range, asked: types.Range) -> bool:
    def key(at: types.Position) -> tuple[int, int]:
        return at.line, at.character

    return key(found.start) <= key(asked.end) and key(asked.start) <= key(found.end)


def noqa_code_at(line_text: str, character: int, codec: PositionCodec) -> str | None:
    """The code of the ``# noqa: ...`` comment under the cursor (``character`` in the client's units), if any."""
    match = NOQA.search(line_text)
    if match is None or match.group("codes") is None:
        return None
    for code in _CODE.finditer(line_text, match.start("codes"), match.end("codes")):
        start = codec.client_num_units(line_text[: code.start()])
        end = codec.client_num_units(line_text[: code.end()])
        if start <= character <= end:
            return code.group().upper()
    return None
