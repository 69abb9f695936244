"""The API client: a session built lazily on first use, `async with` support, factories."""
from __future__ import annotations

from r10b_clients.transport import FakeTransport, make_transport


class Session:
    def __init__(self, transport, base_url: str) -> None:
        self.transport = transport
        self.base_url = base_url
        self.requests = 0

    async def request(self, method: str, path: str) -> str:
        self.requests += 1
        return await self.transport.send(method, self.base_url + path)


class CannedSession:
    """A session that replays recorded answers (used in tests)."""

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers

    async def request(self, method: str, path: str) -> str:
        return self.answers.get(f"{method} {path}", "404")


class ApiClient:
    def __init__(self, base_url: str = "https://api.local", *, mode: str = "http", transport=None,
                 retries: int = 0) -> None:
        self.base_url = base_url
        self.mode = mode
        self.retries = retries
        self._transport = transport
        self._session: Session | CannedSession | None = None
        self.connection: str | None = None

    @property
    def transport(self):
        if self._transport is None:
            self._transport = make_transport(self.mode, retries=self.retries)
        return self._transport

    @property
    def session(self):
        if self._session is None:
            self._session = Session(self.transport, self.base_url)
        return self._session

    def use_session(self, session) -> "ApiClient":
        self._session = session
        return self

    async def get(self, path: str) -> str:
        return await self.session.request("GET", path)

    async def post(self, path: str) -> str:
        return await self.session.request("POST", path)

    async def __aenter__(self) -> "ApiClient":
        self.connection = await self.transport.connect()
        return self

    async def __aexit__(self, exc_type, exc, tb) -> bool:
        self.connection = None
        return False

    @classmethod
    def for_tests(cls) -> "ApiClient":
        return cls("https://test.local", transport=FakeTransport())


class ClosingClient(ApiClient):
    """A client that connects lazily but tells the server it is going away when the block ends."""

    async def __aenter__(self) -> "ClosingClient":
        return self

    async def __aexit__(self, exc_type, exc, tb) -> bool:
        await self.transport.close()
        return await super().__aexit__(exc_type, exc, tb)


def client_from_settings(settings: dict) -> ApiClient:
    return ApiClient(settings.get("base_url", "https://api.local"), mode=settings.get("transport", "http"),
                     retries=int(settings.get("retries", 0)))


async def with_retry(make_call, attempts: int = 2):
    for attempt in range(attempts):
        try:
            return await make_call()
        except ValueError:
            if attempt == attempts - 1:
                raise
    return None
