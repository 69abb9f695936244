"""GitHub Actions workflow commands: one annotation per finding.

``::error title=...,file=...,line=...,col=...,endLine=...,endColumn=...::message``.
The runner splits a command at ``::`` and its properties at ``,``, so values
are escaped as ``actions/toolkit`` does: ``%``, CR and LF in the message;
those plus ``:`` and ``,`` in the properties.
"""

from __future__ import annotations

from steplint.core.diagnostics import ERROR, WARNING, Diagnostic

_COMMAND = {ERROR: "error", WARNING: "warning"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(d: Diagnostic) -> str:
    command = _COMMAND.get(d.severity, "notice")
    properties = {
        "title": f"steplint {d.code} ({d.name})",
        "file": d.path,
        "line": d.line,
        "col": d.column,
        "endLine": d.end_line,
        "endColumn": d.end_column,
    }
    rendered = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{command} {rendered}::{escape_data(f'{d.code} {d.message}')}"


def as_github(diagnostics: list[Diagnostic]) -> str:
    return "".join(annotation(d) + "\n" for d in diagnostics)
