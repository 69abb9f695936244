"""``--format gitlab``: GitLab's Code Quality report (a JSON array of issues), as ruff writes it.

Each issue has GitLab's required keys: ``description``, ``check_name``,
``fingerprint`` (unique in the report and stable while lines move),
``severity`` (``major`` for an error, ``minor`` for a warning) and ``location``
(``path`` relative to ``CI_PROJECT_DIR``, else the current folder, and
``positions``). https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format
"""

from __future__ import annotations

import json
import os
from collections import Counter

from steplint.core.diagnostics import ERROR, Diagnostic
from steplint.report.sarif_format import fingerprint


def _project_path(path: str, base: str) -> str:
    relative = os.path.relpath(os.path.abspath(path), base)
    return (path if relative.startswith("..") else relative).replace(os.sep, "/")


def as_gitlab(diagnostics: list[Diagnostic]) -> str:
    base = os.environ.get("CI_PROJECT_DIR") or os.getcwd()
    seen: Counter[str] = Counter()
    issues = []
    for d in diagnostics:
        key = fingerprint(d)
        seen[key] += 1  # identical findings in one file are told apart by their order
        issues.append({
            "check_name": d.code,
            "description": f"{d.code}: {d.message}",
            "fingerprint": f"{key}:{seen[key]}" if seen[key] > 1 else key,
            "location": {
                "path": _project_path(d.path, base),
                "positions": {"begin": {"column": d.column, "line": d.line},
                              "end": {"column": d.end_column, "line": d.end_line}},
            },
            "severity": "major" if d.severity == ERROR else "minor",
        })
    return json.dumps(issues, indent=2) + "\n"
