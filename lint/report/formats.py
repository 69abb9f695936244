"""Render findings: one function per format, each returning the whole text (``--format NAME``)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Callable

from steplint.core.diagnostics import Diagnostic
from steplint.report.github_format import as_github
from steplint.report.sarif_format import as_sarif


def as_text(diagnostics: list[Diagnostic]) -> str:
    return "".join(f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}\n" for d in diagnostics)


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


def statistics(diagnostics: list[Diagnostic]) -> str:
    counts = Counter((d.code, d.name) for d in diagnostics)
    width = max((len(str(n)) for n in counts.values()), default=1)
    return "".join(f"{count:>{width}}  {code}  {name}\n" for (code, name), count in sorted(counts.items()))


FORMATTERS: dict[str, Callable[[list[Diagnostic]], str]] = {
    "text": as_text,
    "json": as_json,
    "json-lines": as_json_lines,
    "pylint": as_pylint,
    "github": as_github,
    "sarif": as_sarif,
}
