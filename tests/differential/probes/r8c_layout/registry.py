"""A module-level registry of named actions, filled at import time by decorators in several modules."""
from __future__ import annotations

from typing import Any, Awaitable, Callable

Action = Callable[[str], Awaitable[Any]]

ACTIONS: dict[str, Action] = {}


def action(name: str) -> Callable[[Action], Action]:
    def register(fn: Action) -> Action:
        if name in ACTIONS:
            raise KeyError(f"action {name!r} registered twice")
        ACTIONS[name] = fn
        return fn
    return register
