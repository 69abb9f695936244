"""``--format azure``: Azure Pipelines logging commands, one ``task.logissue`` per finding, as ruff writes them.

``##vso[task.logissue type=error;sourcepath=...;linenumber=..;columnnumber=..;code=..;]message``:
the agent splits properties at ``;`` and ends them at ``]``, so those (with
``%``, CR and LF) are escaped as the agent's own task library does.
"""

from __future__ import annotations

from steplint.core.diagnostics import ERROR, Diagnostic

_DATA_ESCAPES = (("%", "%AZP25"), ("\r", "%0D"), ("\n", "%0A"))
_PROPERTY_ESCAPES = (*_DATA_ESCAPES, (";", "%3B"), ("]", "%5D"))


def _escaped(text: str, escapes: tuple[tuple[str, str], ...]) -> str:
    for raw, escaped in escapes:
        text = text.replace(raw, escaped)
    return text


def as_azure(diagnostics: list[Diagnostic]) -> str:
    lines = []
    for d in diagnostics:
        kind = "error" if d.severity == ERROR else "warning"
        properties = {"type": kind, "sourcepath": d.path, "linenumber": d.line, "columnnumber": d.column, "code": d.code}
        rendered = "".join(f"{key}={_escaped(str(value), _PROPERTY_ESCAPES)};" for key, value in properties.items())
        lines.append(f"##vso[task.logissue {rendered}]{_escaped(d.message, _DATA_ESCAPES)}\n")
    return "".join(lines)
