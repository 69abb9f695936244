"""Render findings: one function per format, each returning the whole text (``--format NAME``)."""

from __future__ import annotations

import json
from typing import Callable

from steplint.core.diagnostics import Diagnostic
from steplint.report.format_names import CONCISE, FULL, GITHUB, JSON, JSON_LINES, PYLINT, SARIF, TEXT
from steplint.report.github_format import as_github
from steplint.report.sarif_format import as_sarif
from steplint.report.text_format import as_concise, as_full, source_from_disk


def as_dict(d: Diagnostic) -> dict:
    item = {
        "path": d.path,
        "line": d.line,
        "column": d.column,
        "end_line": d.end_line,
        "end_column": d.end_column,
        "code": d.code,
        "name": d.name,
        "severity": d.severity,
        "message": d.message,
    }
    if d.chain is not None:
        item["chain"] = list(d.chain)
    return item


def as_json(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([as_dict(d) for d in diagnostics], indent=2) + "\n"


def as_json_lines(diagnostics: list[Diagnostic]) -> str:
    """One JSON object per line, the items of ``as_json``: a stream that ``jq -c`` or a log shipper reads."""
    return "".join(json.dumps(as_dict(d)) + "\n" for d in diagnostics)


def as_pylint(diagnostics: list[Diagnostic]) -> str:
    """pylint's ``parseable`` layout, which CI problem matchers and IDE plugins already read."""
    return "".join(f"{d.path}:{d.line}: [{d.code}({d.name}), ] {d.message}\n" for d in diagnostics)


FORMATTERS: dict[str, Callable[[list[Diagnostic]], str]] = {
    TEXT: as_concise,
    CONCISE: as_concise,
    FULL: lambda diagnostics: as_full(diagnostics, source_from_disk),
    JSON: as_json,
    JSON_LINES: as_json_lines,
    PYLINT: as_pylint,
    GITHUB: as_github,
    SARIF: as_sarif,
}
