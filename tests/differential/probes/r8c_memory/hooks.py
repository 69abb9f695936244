"""Observer hooks on messages and a callback registry keyed by (agent name, event)."""
from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any, Awaitable, Callable

from r8c_memory import steps
from r8c_memory.messages import Message

Hook = Callable[[str], Awaitable[Any]]


async def log_message(text: str) -> str:
    return "log:" + text


async def count_words(text: str) -> int:
    return len(text.split())


class MessageBus:
    def __init__(self, hooks: list[Hook] | None = None) -> None:
        self.on_message: list[Hook] = list(hooks or [])
        self.by_role: dict[str, list[Hook]] = defaultdict(list)

    def subscribe(self, hook: Hook, role: str | None = None) -> Hook:
        (self.by_role[role] if role else self.on_message).append(hook)
        return hook

    def unsubscribe(self, hook: Hook) -> None:
        self.on_message.remove(hook)

    async def emit(self, message: Message) -> list[Any]:
        results = []
        for hook in self.on_message + self.by_role.get(message.role, []):
            results.append(await hook(message.text))
        return results

    async def emit_concurrently(self, message: Message) -> list[Any]:
        return list(await asyncio.gather(*(hook(message) for hook in self.on_message)))  # expect: STP020


class CallbackRegistry:
    """Callbacks keyed by (agent name, event); a missing key falls back to the '*' agent."""

    def __init__(self) -> None:
        self._callbacks: dict[tuple[str, str], list[Hook]] = {}

    def on(self, agent: str, event: str) -> Callable[[Hook], Hook]:
        def register(callback: Hook) -> Hook:
            self._callbacks.setdefault((agent, event), []).append(callback)
            return callback
        return register

    async def fire(self, agent: str, event: str, payload: str) -> list[Any]:
        callbacks = self._callbacks.get((agent, event)) or self._callbacks.get(("*", event), [])
        return [await callback(payload) for callback in callbacks]


REGISTRY = CallbackRegistry()
REGISTRY.on("planner", "tool_result")(steps.notify_planner)
REGISTRY.on("*", "tool_result")(log_message)


@REGISTRY.on("writer", "final")
async def persist_final(text: str) -> str:
    return await steps.store_fact(text)


@REGISTRY.on("critic", "final")
async def store_critique(text: str) -> str:
    """Plain, despite its name."""
    return "kept:" + text


async def audit_message(message: Message) -> str:
    return f"audit:{message.role}"


async def moderate(message: Message) -> str:
    return await steps.moderate_message(message.text)
