"""Concrete services composed from mixins and bases defined in other modules."""
from __future__ import annotations

from typing import Any, Awaitable, Callable, ClassVar, Mapping

from r9b_mixins import steps
from r9b_mixins.base import Base, RemoteBase
from r9b_mixins.mixins import LoggingMixin, MetricsMixin, RetryMixin, ShortCircuitMixin


class Service(LoggingMixin, RetryMixin, RemoteBase):
    pass


class LocalService(LoggingMixin, RetryMixin, Base):
    retries = 1


class CachedService(ShortCircuitMixin, LoggingMixin, RemoteBase):
    pass


class MeteredService(MetricsMixin, Base):
    metric_name = "metered"


class Notifier:
    def __init__(self, *, online: bool) -> None:
        self.online = online
        self.sent = 0

    @property
    def deliver(self) -> Callable[[str], Awaitable[str]]:
        return self._email if self.online else self._queue

    @property
    def transport(self) -> Callable[[str], Awaitable[str]]:
        return steps.send_email if self.online else steps.queue_message

    async def _email(self, message: str) -> str:
        self.sent += 1
        return await steps.send_email(message)

    async def _queue(self, message: str) -> str:
        return await steps.queue_message(message)


class Gateway:
    backends: ClassVar[dict[str, str]] = {"remote": "_call_remote", "local": "_call_local"}

    def __init__(self, method: str, timeout: float = 1.0) -> None:
        self.method = method
        self.timeout = timeout

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Gateway:
        backend = config.get("backend", "local")
        return cls(cls.backends[backend], timeout=float(config.get("timeout", 1.0)))

    async def call(self, payload: str) -> str:
        return await getattr(self, self.method)(payload)

    async def _call_remote(self, payload: str) -> str:
        return await steps.call_gateway(payload)

    async def _call_local(self, payload: str) -> str:
        return "local:" + payload
