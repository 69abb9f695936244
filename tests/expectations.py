"""Inline expectations: ``# expect: STP001`` (or ``STP001, STP010``) on the reported line."""

from __future__ import annotations

import re
from pathlib import Path

from steplint.config import Settings
from steplint.engine import lint_paths

EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>[A-Z]+[0-9]+(?:\s*,\s*[A-Z]+[0-9]+)*)")
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def expected_in(path: Path, root: Path) -> set[tuple[str, int, str]]:
    found = set()
    text = path.read_bytes().decode("utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            for code in match.group("codes").split(","):
                found.add((path.relative_to(root).as_posix(), number, code.strip()))
    return found


def fixture_entries() -> list[Path]:
    """Every file directly under fixtures/, and every folder (a multi-module project)."""
    return sorted(p for p in FIXTURES.iterdir() if p.suffix in (".py", ".pyi") or (p.is_dir() and not p.name.startswith((".", "_"))))


def expected_for(entry: Path) -> set[tuple[str, int, str]]:
    root = entry.parent if entry.is_file() else entry
    files = [entry] if entry.is_file() else sorted(p for p in entry.rglob("*") if p.suffix in (".py", ".pyi"))
    found: set[tuple[str, int, str]] = set()
    for file in files:
        found |= expected_in(file, root)
    return found


def settings_for(entry: Path, **overrides) -> Settings:
    root = entry.parent if entry.is_file() else entry
    return Settings(project_root=root, **overrides)


def reported_for(entry: Path, settings: Settings | None = None) -> set[tuple[str, int, str]]:
    root = entry.parent if entry.is_file() else entry
    result = lint_paths([str(entry)], settings or settings_for(entry))
    return {(Path(d.path).resolve().relative_to(root.resolve()).as_posix(), d.line, d.code) for d in result.diagnostics}
