"""Domain objects tracked by the session."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(eq=False)
class User:
    name: str
    email: str = ""


@dataclass(eq=False)
class AdminUser(User):
    level: int = 1


@dataclass(eq=False)
class AuditEntry:
    text: str


@dataclass(eq=False)
class Draft:
    body: str
    tags: list[str] = field(default_factory=list)
