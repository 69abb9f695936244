"""``--format rdjson``: reviewdog's Diagnostic Format (one JSON object), as ruff writes it, with each finding's
severity and its fix as reviewdog ``suggestions``. https://github.com/reviewdog/reviewdog/tree/master/proto/rdf"""

from __future__ import annotations

import json

from steplint.catalog.registry import rule_for
from steplint.core.diagnostics import ERROR, Diagnostic
from steplint.report.sarif_format import INFORMATION_URI


def _range(line: int, column: int, end_line: int, end_column: int) -> dict:
    return {"end": {"column": end_column, "line": end_line}, "start": {"column": column, "line": line}}


def _diagnostic(d: Diagnostic) -> dict:
    rule = rule_for(d.code)
    item: dict = {
        "code": {"url": rule.help_uri() if rule is not None else None, "value": d.code},
        "location": {"path": d.path, "range": _range(d.line, d.column, d.end_line, d.end_column)},
        "message": d.message,
        "severity": "ERROR" if d.severity == ERROR else "WARNING",
    }
    if d.fix is not None and d.fix.edits:
        item["suggestions"] = [
            {"range": _range(e.line, e.column, e.end_line, e.end_column), "text": e.replacement} for e in d.fix.edits
        ]
    return item


def as_rdjson(diagnostics: list[Diagnostic]) -> str:
    result = {
        "diagnostics": [_diagnostic(d) for d in diagnostics],
        "severity": "WARNING",
        "source": {"name": "steplint", "url": INFORMATION_URI},
    }
    return json.dumps(result, indent=2) + "\n"
