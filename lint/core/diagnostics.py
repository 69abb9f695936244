"""What a rule reports."""

from __future__ import annotations

from dataclasses import dataclass, field

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text between two 1-based (line, column) positions."""

    line: int
    column: int
    end_line: int
    end_column: int
    replacement: str


@dataclass(frozen=True, slots=True)
class Fix:
    edits: tuple[Edit, ...]
    safe: bool
    title: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding. Lines and columns are 1-based; the end column is exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    name: str
    severity: str
    message: str
    chain: tuple[str, ...] | None = None
    fix: Fix | None = field(default=None, compare=False)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        # The message breaks ties, so that which of two steps sharing one body is named never varies.
        return (self.path, self.line, self.column, self.code, self.message)
