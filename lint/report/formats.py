"""Render findings: one function per format, each returning the whole text (``--format NAME``)."""

from __future__ import annotations

from typing import Callable

from steplint.core.diagnostics import Diagnostic
from steplint.report.azure_format import as_azure
from steplint.report.format_names import (
    AZURE, CONCISE, FULL, GITHUB, GITLAB, GROUPED, JSON, JSON_LINES, JUNIT, PYLINT, RDJSON, SARIF, TEXT,
)
from steplint.report.github_format import as_github
from steplint.report.gitlab_format import as_gitlab
from steplint.report.json_format import as_dict, as_json, as_json_lines
from steplint.report.junit_format import as_junit
from steplint.report.notebook_cells import with_fallback_positions
from steplint.report.rdjson_format import as_rdjson
from steplint.report.sarif_format import as_sarif
from steplint.report.text_format import as_concise, as_full, as_grouped, source_from_disk

__all__ = ["FORMATTERS", "as_dict", "as_json", "as_json_lines", "as_pylint"]


def as_pylint(diagnostics: list[Diagnostic]) -> str:
    """pylint's ``parseable`` layout, which CI problem matchers and IDE plugins already read."""
    return "".join(f"{d.path}:{d.line}: [{d.code}({d.name}), ] {d.message}\n" for d in diagnostics)


def _without_cells(formatter: Callable[[list[Diagnostic]], str]) -> Callable[[list[Diagnostic]], str]:
    """A format with no place for a notebook cell: its findings at the fallback position, the cell in the message."""
    return lambda diagnostics: formatter(with_fallback_positions(diagnostics))


FORMATTERS: dict[str, Callable[[list[Diagnostic]], str]] = {
    TEXT: as_concise,
    CONCISE: as_concise,
    FULL: lambda diagnostics: as_full(diagnostics, source_from_disk),
    JSON: as_json,
    JSON_LINES: as_json_lines,
    PYLINT: _without_cells(as_pylint),
    GITHUB: _without_cells(as_github),
    SARIF: _without_cells(as_sarif),
    GROUPED: as_grouped,
    JUNIT: _without_cells(as_junit),
    GITLAB: _without_cells(as_gitlab),
    RDJSON: _without_cells(as_rdjson),
    AZURE: _without_cells(as_azure),
}
