"""Commands as dataclasses with execute()/undo(), a macro command, and an undo/redo history on deques."""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Protocol

from r9c_commands import steps
from r9c_commands.inventory import Inventory


class Command(Protocol):
    async def execute(self) -> str: ...

    async def undo(self) -> str: ...


@dataclass
class AddItem:
    inventory: Inventory
    sku: str
    qty: int

    async def execute(self) -> str:
        self.inventory.add(self.sku, self.qty)
        return f"added:{self.sku}"

    async def undo(self) -> str:
        self.inventory.remove(self.sku, self.qty)
        return await steps.release_stock(self.sku, self.qty)


@dataclass
class Note:
    text: str
    log: list[str] = field(default_factory=list)

    async def execute(self) -> str:
        self.log.append(self.text)
        return f"noted:{self.text}"

    async def undo(self) -> str:
        if self.log:
            self.log.pop()
        return f"unnoted:{self.text}"


@dataclass
class Reserve:
    sku: str
    qty: int
    attempt: int = 0

    async def execute(self) -> str:
        self.attempt += 1
        return await steps.reserve_stock(f"{self.sku}#{self.attempt}", self.qty)

    async def undo(self) -> str:
        return f"unreserved:{self.sku}"


@dataclass
class MacroCommand:
    commands: list[Command] = field(default_factory=list)

    async def execute(self) -> str:
        results = []
        for command in self.commands:
            results.append(await command.execute())
        return ",".join(results)

    async def undo(self) -> str:
        results = []
        for command in reversed(self.commands):
            results.append(await command.undo())
        return ",".join(results)


class History:
    def __init__(self, limit: int | None = None) -> None:
        self._done: deque[Command] = deque(maxlen=limit)
        self._undone: deque[Command] = deque()

    async def run(self, command: Command) -> str:
        result = await command.execute()
        self._done.append(command)
        self._undone.clear()
        return result

    async def undo(self) -> str:
        if not self._done:
            return "nothing to undo"
        command = self._done.pop()
        self._undone.append(command)
        return await command.undo()

    async def redo(self) -> str:
        if not self._undone:
            return "nothing to redo"
        command = self._undone.pop()
        self._done.append(command)
        return await command.execute()
