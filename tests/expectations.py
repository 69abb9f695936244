"""Inline expectations: ``# expect: STP001`` (or ``STP001, STP010``) on the reported line.

In a notebook (``.ipynb``) the comment goes on the line of a code cell, and the
expectation is that cell (numbered as Jupyter and ruff number cells: every cell
counts, from 1) and the line in it.

A fixture is linted with default settings (newest target version, the rules
that are on by default) unless it declares its own in a header comment on one
of its first ``HEADER_LINES`` lines::

    # fixture: target-version=1.19, extend-select=STP011, STP012

Keys are ``target-version``, ``target-python``, ``select``, ``extend-select`` and ``ignore``;
pairs are separated by commas, and a comma-separated item without ``=``
adds a code to the list key before it. A folder fixture (a multi-module
project) takes the header from any of its files; when several files carry
one, they must agree, so the settings never depend on which file is read
first. Overrides passed to ``settings_for`` win over the header, so a test
can run one fixture under two target versions.
"""

from __future__ import annotations

import re
from pathlib import Path

from steplint.config.settings import Settings, parse_python_version
from steplint.api import lint_paths
from steplint.core.framework_versions import parse_version
from steplint.report.notebook_cells import place_in_cell

from notebook_files import cell_sources

# ``# expect: STP001`` or ``# expect: STP001:18, STP010`` (a column, 1-based, where one is given).
EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>[A-Z]+[0-9]+(?::[0-9]+)?(?:\s*,\s*[A-Z]+[0-9]+(?::[0-9]+)?)*)")
HEADER = re.compile(r"^\s*#\s*fixture:\s*(?P<pairs>.+?)\s*$")
HEADER_LINES = 10
NOTEBOOK = ".ipynb"
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
_LIST_KEYS = {"select": "select", "extend-select": "extend_select", "ignore": "ignore"}


class FixtureHeaderError(ValueError):
    pass


def expected_in(path: Path, root: Path) -> set[tuple[str, int, str]]:
    """(path, line, code) of every expectation; ``expected_columns_in`` has the columns given."""
    return {(file, line, code) for file, line, code, _ in _expectations(path, root)}


def expected_columns_in(path: Path, root: Path) -> set[tuple[str, int, str, int]]:
    return {(file, line, code, column) for file, line, code, column in _expectations(path, root) if column is not None}


def _expectations(path: Path, root: Path) -> list[tuple[str, int, str, int | None]]:
    """In a notebook, the expectations of each cell, as ``orders.ipynb:cell 5`` and the line in that cell (read with
    ``json``, as Jupyter numbers the cells: every cell counts)."""
    name = path.relative_to(root).as_posix()
    if path.suffix == NOTEBOOK:
        return [found for number, source in enumerate(cell_sources(path.read_text(encoding="utf-8")), start=1)
                for found in _expectations_in(source, f"{name}:cell {number}")]
    return _expectations_in(path.read_bytes().decode("utf-8", errors="replace"), name)


def _expectations_in(text: str, name: str) -> list[tuple[str, int, str, int | None]]:
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            for item in match.group("codes").split(","):
                code, _, column = item.strip().partition(":")
                found.append((name, number, code, int(column) if column else None))
    return found


def fixture_entries() -> list[Path]:
    """Every file directly under fixtures/, and every folder (a multi-module project).

    ``X.fixed.py`` is not a fixture: it is what fixing ``X.py`` must give (tests/test_fixes.py).
    """
    return sorted(
        p
        for p in FIXTURES.iterdir()
        if (p.suffix in (".py", ".pyi", NOTEBOOK) and not is_fix_golden(p)) or (p.is_dir() and not p.name.startswith((".", "_")))
    )


def is_fix_golden(path: Path) -> bool:
    return path.name.endswith(".fixed.py")


def _files_of(entry: Path) -> list[Path]:
    if entry.is_file():
        return [entry]
    return sorted(p for p in entry.rglob("*") if p.suffix in (".py", ".pyi", NOTEBOOK) and not is_fix_golden(p))


def expected_for(entry: Path) -> set[tuple[str, int, str]]:
    root = entry.parent if entry.is_file() else entry
    found: set[tuple[str, int, str]] = set()
    for file in _files_of(entry):
        found |= expected_in(file, root)
    return found


def expected_columns_for(entry: Path) -> set[tuple[str, int, str, int]]:
    """(path, line, code, column) of the expectations that give a column."""
    root = entry.parent if entry.is_file() else entry
    found: set[tuple[str, int, str, int]] = set()
    for file in _files_of(entry):
        found |= expected_columns_in(file, root)
    return found


def parse_header(text: str) -> dict[str, object]:
    """The ``Settings`` fields a ``# fixture:`` header sets (empty without a header)."""
    for line in text.splitlines()[:HEADER_LINES]:
        match = HEADER.match(line)
        if match is None:
            continue
        fields: dict[str, object] = {}
        list_key: str | None = None
        for item in (part.strip() for part in match.group("pairs").split(",")):
            if not item:
                continue
            key, has_value, value = (part.strip() for part in item.partition("="))
            if not has_value:
                if list_key is None:
                    raise FixtureHeaderError(f"fixture header item {item!r} is not key=value")
                fields[list_key] = (*fields[list_key], key)  # type: ignore[misc]
                continue
            if key == "target-version":
                fields["target_version"] = parse_version(value)
                list_key = None
            elif key == "target-python":
                fields["target_python"] = parse_python_version(value)
                list_key = None
            elif key in _LIST_KEYS:
                list_key = _LIST_KEYS[key]
                fields[list_key] = (value,)
            else:
                raise FixtureHeaderError(f"unknown fixture header key {key!r}")
        return fields
    return {}


def header_settings(entry: Path) -> dict[str, object]:
    """The header of a fixture file, or the one header all files of a folder fixture agree on."""
    chosen: dict[str, object] = {}
    chosen_from: Path | None = None
    for file in _files_of(entry):
        fields = parse_header(file.read_bytes().decode("utf-8", errors="replace"))
        if not fields:
            continue
        if chosen_from is not None and fields != chosen:
            raise FixtureHeaderError(f"fixture headers of {chosen_from.name} and {file.name} disagree")
        chosen, chosen_from = fields, file
    return chosen


def settings_for(entry: Path, **overrides) -> Settings:
    root = entry.parent if entry.is_file() else entry
    return Settings(project_root=root, **{**header_settings(entry), **overrides})


def reported_for(entry: Path, settings: Settings | None = None) -> set[tuple[str, int, str]]:
    return {(path, line, code) for path, line, code, _ in reported_columns_for(entry, settings)}


def reported_columns_for(entry: Path, settings: Settings | None = None) -> set[tuple[str, int, str, int]]:
    root = entry.parent if entry.is_file() else entry
    result = lint_paths([str(entry)], settings or settings_for(entry))
    reported = set()
    for d in result.diagnostics:
        name = Path(d.path).resolve().relative_to(root.resolve()).as_posix()
        placed, cell = place_in_cell(d)  # a notebook's finding: its cell and the line in it
        reported.add((f"{name}:cell {cell}" if cell is not None else name, placed.line, d.code, d.column))
    return reported
