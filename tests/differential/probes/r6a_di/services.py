"""Service classes that receive their collaborators through __init__ (constructor injection)."""
import functools
from dataclasses import dataclass, field
from typing import Awaitable, Callable

from .steps import audit, noop

Handler = Callable[[str], Awaitable[str]]


class PaymentService:
    def __init__(self, charger: Handler, notifier: Handler) -> None:
        self._charger = charger
        self._notifier = notifier

    async def pay(self, user: str) -> str:
        charged = await self._charger(user)
        return await self._notifier(charged)


@dataclass
class Settings:
    loader: Handler = noop
    hooks: list = field(default_factory=list)


class UserRepository:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @property
    def loader(self) -> Handler:
        return self.settings.loader

    async def get(self, user: str) -> str:
        return await self.loader(user)

    async def get_with_hooks(self, user: str) -> str:
        value = await self.get(user)
        for hook in self.settings.hooks:
            value = await hook(value)
        return value


class Mailer:
    def __init__(self, transport: Handler = audit, *, prefix: str = "") -> None:
        self.send = functools.partial(self._deliver, transport)
        self.prefix = prefix

    async def _deliver(self, transport: Handler, text: str) -> str:
        return await transport(self.prefix + text)
