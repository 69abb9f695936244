"""``--format json`` and ``json-lines``: ruff's schema, so that the tools that read ruff's JSON read steplint's.

Each finding has ruff's keys (``cell``, ``code``, ``end_location``, ``filename``,
``fix``, ``location``, ``message``, ``noqa_row``, ``url``; rows and columns
1-based, ``filename`` absolute; in a notebook, ``cell`` is the cell's number and
rows count in that cell), then steplint's own (``path``, ``line``,
``column``, ``end_line``, ``end_column``, ``name``, ``severity``, ``chain`` for
STP002), which earlier readers of steplint's JSON still find.
"""

from __future__ import annotations

import json
import os

from steplint.catalog.registry import rule_for
from steplint.core.diagnostics import Diagnostic, Edit, Fix
from steplint.report.notebook_cells import place_in_cell

STDIN = "-"


def _location(row: int, column: int) -> dict:
    return {"column": column, "row": row}


def _edit(edit: Edit) -> dict:
    return {
        "content": edit.replacement,
        "end_location": _location(edit.end_line, edit.end_column),
        "location": _location(edit.line, edit.column),
    }


def fix_record(fix: Fix | None) -> dict | None:
    """ruff's ``fix``: its applicability (``safe``/``unsafe``), its edits and its message."""
    if fix is None or not fix.edits:
        return None
    return {"applicability": "safe" if fix.safe else "unsafe", "edits": [_edit(e) for e in fix.edits], "message": fix.title}


def absolute_filename(path: str) -> str:
    return path if path == STDIN else os.path.abspath(path)


def as_dict(d: Diagnostic) -> dict:
    rule = rule_for(d.code)
    d, cell = place_in_cell(d)  # in a notebook, rows count from the cell's first line, as ruff counts them
    item = {
        "cell": cell,
        "code": d.code,
        "end_location": _location(d.end_line, d.end_column),
        "filename": absolute_filename(d.path),
        "fix": fix_record(d.fix),
        "location": _location(d.line, d.column),
        "message": d.message,
        "noqa_row": d.line,  # steplint reads a '# noqa' on the reported line (a call's first line)
        "url": rule.help_uri() if rule is not None else None,
        "path": d.path,
        "line": d.line,
        "column": d.column,
        "end_line": d.end_line,
        "end_column": d.end_column,
        "name": d.name,
        "severity": d.severity,
    }
    if d.chain is not None:
        item["chain"] = list(d.chain)
    return item


def as_json(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([as_dict(d) for d in diagnostics], indent=2) + "\n"


def as_json_lines(diagnostics: list[Diagnostic]) -> str:
    """One JSON object per line, the items of ``as_json``: a stream that ``jq -c`` or a log shipper reads."""
    return "".join(json.dumps(as_dict(d)) + "\n" for d in diagnostics)
