"""Findings for a person: one line each (``concise``) or with the source line and a caret (``full``), a closing
summary, hints about fixes, colour on a terminal.

A line keeps flake8's shape, so problem matchers still read it::

    flow.py:24:18: STP001 error: step 'wrapper' calls step 'tick': ...
    flow.py:9:27: STP100 warning: [*] unused noqa: STP002 silences nothing on this line; remove it

``[*]`` marks a finding ``--fix`` can fix (with ``--unsafe-fixes``, an unsafe fix counts too).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Callable

from steplint.core.diagnostics import ERROR, Diagnostic
from steplint.report.format_names import JSON, JSON_LINES, TEXT
from steplint.report.notebook_cells import cell_text, place_in_cell
from steplint.source.reading import readable_text

RED, YELLOW, BOLD, CYAN, DIM, RESET = "\033[31m", "\033[33m", "\033[1m", "\033[36m", "\033[2m", "\033[0m"


def _paint(text: str, code: str, colour: bool) -> str:
    return f"{code}{text}{RESET}" if colour else text


def _fixable(d: Diagnostic, unsafe: bool) -> bool:
    return d.fix is not None and (d.fix.safe or unsafe)


def line(d: Diagnostic, colour: bool = False, unsafe: bool = False) -> str:
    d, cell = place_in_cell(d)  # a notebook's finding: ``orders.ipynb:cell 5:3:18:``, as ruff prints it
    where = _paint(f"{d.path}:{_cell_prefix(cell)}{d.line}:{d.column}:", BOLD, colour)
    severity = _paint(d.severity, RED if d.severity == ERROR else YELLOW, colour)
    code = _paint(d.code, RED if d.severity == ERROR else YELLOW, colour)
    mark = _paint("[*] ", CYAN, colour) if _fixable(d, unsafe) else ""
    return f"{where} {code} {severity}: {mark}{d.message}"


def as_concise(diagnostics: list[Diagnostic], colour: bool = False, unsafe: bool = False) -> str:
    return "".join(line(d, colour, unsafe) + "\n" for d in diagnostics)


def as_grouped(diagnostics: list[Diagnostic], colour: bool = False, unsafe: bool = False) -> str:
    """ruff's ``grouped``: each file's name, then its findings as ``row:column CODE message``, aligned, then a blank
    line."""
    by_path: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        by_path.setdefault(d.path, []).append(d)
    out: list[str] = []
    for path, findings in by_path.items():
        placed = [place_in_cell(d) for d in findings]
        findings = [d for d, _ in placed]
        cells = [_cell_prefix(cell) for _, cell in placed]
        row_width = max(len(str(d.line)) for d in findings)
        column_width = max(len(str(d.column)) for d in findings)
        out.append(_paint(f"{path}:", BOLD, colour))
        for d, cell in zip(findings, cells):
            mark = _paint("[*] ", CYAN, colour) if _fixable(d, unsafe) else ""
            code = _paint(d.code, RED if d.severity == ERROR else YELLOW, colour)
            out.append(f"  {cell}{d.line:>{row_width}}:{d.column:<{column_width}} {code} {mark}{d.message}")
        out.append("")
    return "".join(line + "\n" for line in out)


def as_full(diagnostics: list[Diagnostic], source_of: Callable[[str], str | None], colour: bool = False,
            unsafe: bool = False) -> str:
    """Each finding, then its source line with a caret under the span (ruff's default layout)."""
    out: list[str] = []
    for d in diagnostics:
        out.append(line(d, colour, unsafe))
        d, cell = place_in_cell(d)
        text = cell_text(d.path, cell) if cell is not None else source_of(d.path)
        lines = text.splitlines() if text is not None else []
        if 1 <= d.line <= len(lines):
            source = lines[d.line - 1].expandtabs(1)
            gutter = " " * len(str(d.line))
            width = max((d.end_column - d.column) if d.end_line == d.line else len(source) - d.column + 1, 1)
            caret = " " * (d.column - 1) + "^" * width
            out.append(_paint(f"{gutter} |", DIM, colour))
            out.append(f"{_paint(f'{d.line} |', DIM, colour)} {source}")
            out.append(f"{_paint(f'{gutter} |', DIM, colour)} {_paint(caret, RED if d.severity == ERROR else YELLOW, colour)} {d.code}")
        out.append("")
    return "\n".join(out) + ("\n" if out else "")


def _cell_prefix(cell: int | None) -> str:
    return f"cell {cell}:" if cell is not None else ""


def summary(diagnostics: list[Diagnostic], unsafe: bool = False, colour: bool = False, fixed: int | None = None) -> str:
    """``Found 3 findings (1 error, 2 warnings).``, after ``--fix`` ``Found 3 findings (2 fixed, 1 remaining).``, or
    ``All checks passed!``; then what ``--fix`` and ``--unsafe-fixes`` could still do."""
    if not diagnostics and not fixed:
        return _paint("All checks passed!", BOLD, colour) + "\n"
    if fixed is not None:
        total = counted(len(diagnostics) + fixed, "finding")
        text = [f"Found {total} ({fixed} fixed, {len(diagnostics)} remaining)."]
    else:
        errors = sum(1 for d in diagnostics if d.severity == ERROR)
        warnings = len(diagnostics) - errors
        parts = [counted(errors, "error")] if errors else []
        if warnings:
            parts.append(counted(warnings, "warning"))
        text = [f"Found {counted(len(diagnostics), 'finding')} ({', '.join(parts)})."]
    fixable = sum(1 for d in diagnostics if _fixable(d, unsafe))
    hidden = 0 if unsafe else sum(1 for d in diagnostics if d.fix is not None and not d.fix.safe)
    if fixable:
        text.append(f"[*] {fixable} fixable with `--fix`.")
    if hidden:
        text.append(f"{counted(hidden, 'hidden fix', 'hidden fixes')} can be enabled with `--unsafe-fixes`.")
    return "\n".join(text) + "\n"


def statistics(diagnostics: list[Diagnostic], layout: str = TEXT, unsafe: bool = False) -> str:
    """A count per rule (``--statistics``), as ruff prints it: the most frequent first (then by code), as tab-separated
    ``count code [*] name`` lines (``[ ]`` for a rule without a fix, when some rule has one), a JSON array of
    ``{code, name, count, fixable}`` (``fixable``: whether ``--fix`` fixes some of them), or one object per line."""
    counts = Counter((d.code, d.name) for d in diagnostics)
    fixable = {d.code for d in diagnostics if _fixable(d, unsafe)}
    rows = [{"code": code, "name": name, "count": count, "fixable": code in fixable}
            for (code, name), count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
    if layout == JSON:
        return json.dumps(rows, indent=2) + "\n"
    if layout == JSON_LINES:
        return "".join(json.dumps(row) + "\n" for row in rows)
    count_width = max((len(str(n)) for n in counts.values()), default=1)
    code_width = max((len(code) for code, _ in counts), default=1)
    marks = {True: "[*] ", False: "[ ] "} if fixable else {True: "", False: ""}
    return "".join(
        f"{row['count']:>{count_width}}\t{row['code']:<{code_width}}\t{marks[row['fixable']]}{row['name']}\n" for row in rows
    )


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """``1 finding``, ``3 findings``, ``2 hidden fixes``."""
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def source_from_disk(path: str) -> str | None:
    """A file's text for ``full`` (None when it cannot be read or decoded: the finding is shown without it)."""
    return readable_text(path)
