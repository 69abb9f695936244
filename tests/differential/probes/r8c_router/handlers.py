"""Handler classes with a common base; some subclasses reach a step from handle()."""
from __future__ import annotations

import re

from r8c_router import steps
from r8c_router.intents import classify


class Handler:
    name = "base"

    async def handle(self, text: str) -> str:
        reply = await self.respond(text)
        return f"[{self.name}] {reply}"

    async def respond(self, text: str) -> str:
        return text

    def describe(self) -> str:
        return f"{type(self).__name__}({self.name})"


class RefundHandler(Handler):
    name = "refund"

    async def respond(self, text: str) -> str:
        return await steps.issue_refund(text)


class OrderStatusHandler(Handler):
    name = "order_status"

    async def handle(self, text: str) -> str:
        match = re.search(r"\d+", text)
        return await steps.track_order(match.group(0) if match else "?")


class GreetingHandler(Handler):
    name = "greeting"

    async def respond(self, text: str) -> str:
        return "Hi! How can I help?"


class FallbackHandler(Handler):
    name = "fallback"

    async def respond(self, text: str) -> str:
        return "Sorry, I did not get that."


class EscalatingFallback(FallbackHandler):
    name = "escalate"

    async def respond(self, text: str) -> str:
        return await steps.escalate_to_human(text)


HANDLERS: dict[str, type[Handler]] = {
    "refund": RefundHandler,
    "order_status": OrderStatusHandler,
    "greeting": GreetingHandler,
}


class Router:
    def __init__(self, handlers: dict[str, type[Handler]] | None = None,
                 fallback: type[Handler] = FallbackHandler) -> None:
        self.handlers = HANDLERS if handlers is None else handlers
        self.fallback = fallback

    def pick(self, text: str) -> Handler:
        handler_cls = self.handlers.get(classify(text), self.fallback)
        return handler_cls()

    async def route(self, text: str) -> str:
        return await self.pick(text).handle(text)
