"""A deterministic stand-in for a chat model: it returns scripted tool calls, turn by turn."""
from __future__ import annotations

from typing import Any

SCRIPTS: dict[str, list[list[dict[str, Any]]]] = {
    "support": [[{"tool": "lookup", "args": {"query": "acme"}}], [{"final": "found acme"}]],
    "maths": [[{"tool": "calculator", "args": {"expression": "2+3"}}, {"tool": "weather", "args": {"city": "Oslo"}}],
              [{"final": "5, sunny"}]],
    "research": [[{"tool": "search", "args": {"query": "step workflows"}}], [{"final": "done"}]],
    "answer_first": [[{"final": "I already know"}], [{"tool": "lookup", "args": {"query": "late"}}]],
    "parallel": [[{"tool": "translate", "args": {"text": "hola"}}, {"tool": "fetch_page", "args": {"url": "/a"}}],
                 [{"final": "ok"}]],
}


class FakeModel:
    def __init__(self, script: list[list[dict[str, Any]]]) -> None:
        self.script = list(script)
        self.turn = 0
        self.seen: list[str] = []

    @classmethod
    def scripted(cls, name: str) -> "FakeModel":
        return cls(SCRIPTS[name])

    @classmethod
    def for_mode(cls, mode: str) -> "FakeModel":
        return cls.scripted("support" if mode == "a" else "maths")

    def respond(self, messages: list[dict[str, str]]) -> list[dict[str, Any]]:
        self.seen.append(messages[-1]["content"])
        if self.turn >= len(self.script):
            return [{"final": "out of script"}]
        reply = self.script[self.turn]
        self.turn += 1
        return reply
