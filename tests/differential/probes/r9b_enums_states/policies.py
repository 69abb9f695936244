"""Priority strategies built over the enum, and permission flags."""
from __future__ import annotations

from enum import IntEnum, IntFlag
from typing import Awaitable, Callable

from r9b_enums_states import steps

Strategy = Callable[[str], Awaitable[str]]


class Priority(IntEnum):
    LOW = 1
    NORMAL = 2
    HIGH = 3


def _strategy_for(priority: Priority) -> Strategy:
    return steps.escalate if priority >= Priority.HIGH else steps.batch


STRATEGIES: dict[Priority, Strategy] = {priority: _strategy_for(priority) for priority in Priority}


async def route(priority: Priority, payload: str) -> str:
    return await STRATEGIES[priority](payload)


class Perm(IntFlag):
    READ = 1
    WRITE = 2
    EXEC = 4
    ADMIN = 8
    OWNER = READ | WRITE | ADMIN


async def apply(perms: Perm, payload: str) -> str:
    done = []
    if Perm.WRITE in perms:
        done.append(await steps.write_file(payload))
    if perms & Perm.ADMIN and perms & Perm.EXEC:
        done.append(await steps.purge(payload))
    return ";".join(done) or "read-only:" + payload
