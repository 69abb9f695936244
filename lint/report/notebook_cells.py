"""Findings in a notebook, placed as ruff places them: a cell (its 1-based number among all the notebook's cells)
and a line and column in that cell.

Findings are made on the notebook's module (``steplint.source.notebooks``); the
output maps them here. The text layouts print ``orders.ipynb:cell 5:3:18:``,
JSON gives ``cell`` with rows relative to it (the fix's edits too). The formats
that have no place for a cell (SARIF, GitHub, GitLab, pylint, JUnit, Azure,
rdjson) get ruff's fallback, line 1, column 1 of the file, and, unlike ruff, the
cell position at the head of the message, so nothing is lost; their fix is left
out (its positions are the module's).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from steplint.core.diagnostics import Diagnostic, Edit, Fix
from steplint.source.notebooks import CellMap, cell_map, cell_source, is_notebook
from steplint.source.reading import read_file

_MAPS: dict[str, tuple[tuple[int, int], CellMap | None, bytes | None]] = {}


def _read(path: str) -> tuple[CellMap | None, bytes | None]:
    """The notebook's map and bytes, read again when the file changed (``--watch`` and ``--fix`` rewrite it)."""
    try:
        info = os.stat(path)
    except OSError:
        return None, None
    signature = (info.st_mtime_ns, info.st_size)
    known = _MAPS.get(path)
    if known is None or known[0] != signature:
        try:
            data = read_file(path, None)
        except Exception:  # unreadable: the finding keeps the module's position
            data = None
        known = _MAPS[path] = (signature, cell_map(data) if data is not None else None, data)
    return known[1], known[2]


@dataclass(frozen=True, slots=True)
class CellPlace:
    cell: int
    line: int
    end_line: int


def cell_place(d: Diagnostic) -> CellPlace | None:
    """Where ``d`` is in its notebook's cells; None for a finding that is not in a notebook."""
    if not is_notebook(d.path):
        return None
    cells, _ = _read(d.path)
    if cells is None or not cells.cells:
        return None
    cell, line = cells.place(d.line)
    end_cell, end_line = cells.place(d.end_line)
    return CellPlace(cell, line, end_line if end_cell == cell else line)


def place_in_cell(d: Diagnostic) -> tuple[Diagnostic, int | None]:
    """``d`` with lines relative to its cell (its fix's edits too), and the cell; ``(d, None)`` outside notebooks."""
    place = cell_place(d)
    if place is None:
        return d, None
    cells, _ = _read(d.path)
    assert cells is not None
    fix = d.fix
    if fix is not None:
        fix = Fix(tuple(_edit_in_cell(edit, cells) for edit in fix.edits), fix.safe, fix.title)
    return replace(d, line=place.line, end_line=place.end_line, fix=fix), place.cell


def _edit_in_cell(edit: Edit, cells: CellMap) -> Edit:
    return replace(edit, line=cells.place(edit.line)[1], end_line=cells.place(edit.end_line)[1])


def cell_text(path: str, cell: int) -> str | None:
    """The source of a notebook's cell, for ``full``'s source lines."""
    _, data = _read(path)
    return cell_source(data, cell) if data is not None else None


def with_fallback_positions(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """For a format without cells: a notebook's findings at line 1, column 1, the cell position in the message."""
    out = []
    for d in diagnostics:
        place = cell_place(d)
        if place is None:
            out.append(d)
            continue
        out.append(replace(d, line=1, column=1, end_line=1, end_column=1, fix=None,
                           message=f"cell {place.cell}:{place.line}:{d.column}: {d.message}"))
    return out
