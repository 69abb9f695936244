"""Services holding the functions they delegate to (a step in production, a plain stand-in otherwise)."""
from __future__ import annotations

from typing import Awaitable, Callable

Handler = Callable[[str], Awaitable[str]]


class UserService:
    def __init__(self, loader: Handler) -> None:
        self.loader = loader

    async def profile(self, user_id: str) -> str:
        return "profile(" + await self.loader(user_id) + ")"

    def describe(self) -> str:
        return "UserService using " + self.loader.__name__


class BillingService:
    def __init__(self, charger: Handler, currency: str = "EUR") -> None:
        self.charger = charger
        self.currency = currency

    async def charge(self, amount: str) -> str:
        return await self.charger(amount + self.currency)


class Mailer:
    def __init__(self, transport: Handler, sender: str = "noreply@example.com") -> None:
        self.transport = transport
        self.sender = sender

    async def send(self, body: str) -> str:
        return await self.transport(self.sender + ":" + body)


class AuditLog:
    def __init__(self, sink: Handler) -> None:
        self.sink = sink
        self.pending: list[str] = []

    def note(self, entry: str) -> None:
        self.pending.append(entry)

    async def record(self, entry: str) -> str:
        return await self.sink(entry)


class Session:
    def __init__(self, tenant: str) -> None:
        self.tenant = tenant
