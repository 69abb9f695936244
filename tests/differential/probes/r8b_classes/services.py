"""Services: a cached_property runner, a __call__ retry wrapper, protocol senders, abstract storages, a proxy,
classmethod constructors and dataclasses."""
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

from r8b_classes import steps


async def local_geocode(text: str) -> str:
    return "local-geo:" + text


class Geocoder:
    def __init__(self, *, remote: bool) -> None:
        self.remote = remote

    @cached_property
    def runner(self) -> Callable[[str], Awaitable[str]]:
        return steps.geocode if self.remote else local_geocode


class Retry:
    def __init__(self, func: Callable[[str], Awaitable[str]], attempts: int = 2) -> None:
        self.func = func
        self.attempts = attempts

    async def __call__(self, text: str) -> str:
        last: Exception | None = None
        for _ in range(self.attempts):
            try:
                return await self.func(text)
            except ConnectionError as err:
                last = err
        raise RuntimeError("gave up") from last


class Sender(Protocol):
    async def send(self, text: str) -> str: ...


class EmailSender:
    async def send(self, text: str) -> str:
        return await steps.send_email(text)


class LogSender:
    async def send(self, text: str) -> str:
        return "log:" + text


async def deliver(sender: Sender, text: str) -> str:
    return await sender.send(text.strip())


class Storage(ABC):
    @abstractmethod
    async def save(self, text: str) -> str: ...

    async def save_all(self, items: list[str]) -> list[str]:
        return [await self.save(item) for item in items]


class BlobStorage(Storage):
    async def save(self, text: str) -> str:
        return await steps.upload_blob(text)


class MemoryStorage(Storage):
    def __init__(self) -> None:
        self.items: list[str] = []

    async def save(self, text: str) -> str:
        self.items.append(text)
        return "mem:" + text


STORAGES: dict[str, type[Storage]] = {"blob": BlobStorage, "memory": MemoryStorage}


def choose_storage(environment: str) -> Storage:
    return STORAGES["blob" if environment == "production" else "memory"]()


async def stub_fetch(text: str) -> str:
    return "stub:" + text


class RemoteClient:
    def __init__(self) -> None:
        self.fetch = steps.fetch_remote
        self.base_url = "https://example.invalid"


class StubClient:
    def __init__(self) -> None:
        self.fetch = stub_fetch
        self.base_url = "stub://"


class ClientProxy:
    """Counts attribute reads and forwards everything else to the wrapped client."""

    def __init__(self, client: object) -> None:
        self._client = client
        self.reads = 0

    def __getattr__(self, name: str) -> object:
        self.reads += 1
        return getattr(self._client, name)


class Notifier:
    def __init__(self, channel: str) -> None:
        self.channel = channel

    @classmethod
    def from_settings(cls, settings: dict[str, str]) -> "Notifier":
        return SmsNotifier(settings["channel"]) if settings.get("channel") == "sms" else cls(settings["channel"])

    async def notify(self, text: str) -> str:
        return f"{self.channel}:{text}"


class SmsNotifier(Notifier):
    async def notify(self, text: str) -> str:
        return await steps.send_sms(text)


async def clean(text: str) -> str:
    return text.strip()


def default_stages() -> list[Callable[[str], Awaitable[str]]]:
    return [clean, steps.enrich]


@dataclass(slots=True)
class Pipeline:
    name: str
    stages: list[Callable[[str], Awaitable[str]]] = field(default_factory=default_stages)


@dataclass
class Job:
    kind: str
    handler: Callable[[str], Awaitable[str]] = field(init=False)

    def __post_init__(self) -> None:
        self.handler = self._archive if self.kind == "archive" else self._skip

    async def _archive(self, text: str) -> str:
        return await steps.archive(text)

    async def _skip(self, text: str) -> str:
        return "skip:" + text
