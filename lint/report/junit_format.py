"""``--format junit``: JUnit XML as ruff writes it, one test suite per file and one failed test case per finding,
which CI test-report views (GitLab, Jenkins, Azure) show."""

from __future__ import annotations

import os
from xml.sax.saxutils import quoteattr, escape

from steplint.core.diagnostics import Diagnostic

_PACKAGE = "org.steplint"


def _case(d: Diagnostic) -> list[str]:
    classname = os.path.splitext(d.path)[0]
    return [
        f"        <testcase name={quoteattr(f'{_PACKAGE}.{d.code}')} classname={quoteattr(classname)} "
        f'line="{d.line}" column="{d.column}">',
        f"            <failure message={quoteattr(d.message)}>{escape(f'line {d.line}, col {d.column}, {d.message}')}</failure>",
        "        </testcase>",
    ]


def as_junit(diagnostics: list[Diagnostic]) -> str:
    by_path: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        by_path.setdefault(d.path, []).append(d)
    total = max(len(diagnostics), 1)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name="steplint" tests="{total}" failures="{len(diagnostics)}" errors="0">']
    if not diagnostics:  # as ruff: one passing case, so that the report is not empty
        out += [f'    <testsuite name="steplint" tests="1" disabled="0" errors="0" failures="0" package="{_PACKAGE}">',
                '        <testcase name="No errors found" classname="steplint"/>', "    </testsuite>"]
    for path, findings in by_path.items():
        out.append(f'    <testsuite name={quoteattr(path)} tests="{len(findings)}" disabled="0" errors="0" '
                   f'failures="{len(findings)}" package="{_PACKAGE}">')
        for d in findings:
            out += _case(d)
        out.append("    </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"
