"""Transports: the real one goes through steps, the fake one answers from memory."""
from __future__ import annotations

from r10b_clients.steps import close_connection, open_connection, send_request


class TransientError(Exception):
    pass


class HttpTransport:
    def __init__(self, host: str = "api.local") -> None:
        self.host = host

    async def send(self, method: str, url: str) -> str:
        return await send_request(f"{method} {url}")

    async def connect(self) -> str:
        return await open_connection(self.host)

    async def close(self) -> str:
        return await close_connection(self.host)


class FakeTransport:
    def __init__(self, host: str = "fake.local") -> None:
        self.host = host
        self.sent: list[str] = []

    async def send(self, method: str, url: str) -> str:
        self.sent.append(f"{method} {url}")
        return f"fake:{method} {url}"

    async def connect(self) -> str:
        return "fake-conn:" + self.host

    async def close(self) -> str:
        return "fake-closed:" + self.host


class FlakyTransport:
    """Fails the first `failures` sends, then hands over to the wrapped transport."""

    def __init__(self, inner, failures: int) -> None:
        self.inner = inner
        self.host = inner.host
        self.failures = failures

    async def send(self, method: str, url: str) -> str:
        if self.failures > 0:
            self.failures -= 1
            raise TransientError(f"flaky {url}")
        return await self.inner.send(method, url)

    async def connect(self) -> str:
        return await self.inner.connect()

    async def close(self) -> str:
        return await self.inner.close()


class RetryingTransport:
    def __init__(self, inner, attempts: int = 3) -> None:
        self.inner = inner
        self.host = inner.host
        self.attempts = attempts

    async def send(self, method: str, url: str) -> str:
        last: Exception | None = None
        for _ in range(self.attempts):
            try:
                return await self.inner.send(method, url)
            except TransientError as exc:
                last = exc
        assert last is not None
        raise last

    async def connect(self) -> str:
        return await self.inner.connect()

    async def close(self) -> str:
        return await self.inner.close()


TRANSPORTS = {"http": HttpTransport, "fake": FakeTransport}


def make_transport(kind: str = "http", *, retries: int = 0, host: str | None = None):
    cls = TRANSPORTS[kind]
    transport = cls(host) if host else cls()
    if retries:
        transport = RetryingTransport(transport, attempts=retries)
    return transport
