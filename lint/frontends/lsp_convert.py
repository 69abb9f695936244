"""steplint's positions, findings and edits in the Language Server Protocol's terms.

steplint counts 1-based lines and 1-based character columns; LSP counts
0-based lines and 0-based columns in the units the client negotiated
(UTF-16 code units unless it offered another encoding).
"""

from __future__ import annotations

import difflib
import os
import re
from bisect import bisect_right

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


def minimal_edits(old: str, new: str, codec: PositionCodec) -> list[types.TextEdit]:
    """The edits that turn ``old`` into ``new`` (what ``source.fixAll`` sends): one per changed run of lines, each
    trimmed to the characters that change, so that the editor keeps its cursor, marks and undo steps elsewhere."""
    starts = [0, *(match.end() for match in LINE_BREAK.finditer(old))]

    def at(offset: int) -> types.Position:
        index = bisect_right(starts, offset) - 1
        return types.Position(line=index, character=codec.client_num_units(old[starts[index]:offset]))

    old_lines, new_lines = _lines(old), _lines(new)
    edits = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        before, after = "".join(old_lines[i1:i2]), "".join(new_lines[j1:j2])
        head, tail = _common_ends(before, after)
        start = starts[i1] if i1 < len(starts) else len(old)
        edits.append(types.TextEdit(range=types.Range(start=at(start + head), end=at(start + len(before) - tail)),
                                    new_text=after[head:len(after) - tail]))
    return edits


def _lines(text: str) -> list[str]:
    """The lines of ``text`` with their breaks, split where steplint and LSP split them (not at form feeds)."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)


def _common_ends(before: str, after: str) -> tuple[int, int]:
    """The lengths of the common prefix and suffix of ``before`` and ``after`` (not overlapping, never splitting a
    CRLF: a position between its two characters is not a position in the document)."""
    head = len(os.path.commonprefix([before, after]))
    if head and before[head - 1] == "\r":
        head -= 1
    limit = min(len(before), len(after)) - head
    tail = 0
    while tail < limit and before[len(before) - 1 - tail] == after[len(after) - 1 - tail]:
        tail += 1
    if tail and before[len(before) - tail] == "\n" and len(before) - tail > 0 and before[len(before) - tail - 1] == "\r":
        tail -= 1
    return head, tail


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
