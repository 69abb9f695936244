"""A conversation memory that summarizes itself every N turns, and a cache-aside helper."""
from __future__ import annotations

from typing import Awaitable, Callable

from r8c_memory import steps

Summarizer = Callable[[str], Awaitable[str]]


async def summarize_locally(transcript: str) -> str:
    """A plain summarizer (no model call): keeps the last line."""
    return transcript.splitlines()[-1]


class ConversationMemory:
    def __init__(self, summarize_every: int = 4, summarizer: Summarizer | None = None) -> None:
        self.summarize_every = summarize_every
        self.summarizer = summarizer or steps.summarize_turns
        self.turns: list[tuple[str, str]] = []
        self.summaries: list[str] = []

    async def add(self, role: str, text: str) -> None:
        self.turns.append((role, text))
        if len(self.turns) >= self.summarize_every:
            await self.summarize()

    async def summarize(self) -> str:
        transcript = "\n".join(f"{role}: {text}" for role, text in self.turns)
        summary = await self.summarizer(transcript)
        self.summaries.append(summary)
        self.turns.clear()
        return summary

    def context(self) -> str:
        recent = " / ".join(text for _, text in self.turns)
        return " | ".join(self.summaries + [recent])


def memory_for_mode(mode: str) -> ConversationMemory:
    return ConversationMemory(summarize_every=2 if mode == "a" else 10)


class Cache:
    def __init__(self) -> None:
        self._data: dict[str, str] = {}
        self.misses = 0

    async def get_or_compute(self, key: str, compute: Callable[[], Awaitable[str]]) -> str:
        if key in self._data:
            return self._data[key]
        self.misses += 1
        value = await compute()
        self._data[key] = value
        return value

    def prime(self, key: str, value: str) -> "Cache":
        self._data[key] = value
        return self
