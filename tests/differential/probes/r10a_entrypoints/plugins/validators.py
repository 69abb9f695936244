"""A validator plugin configured with a callback for rejected payloads."""
from typing import Any, Awaitable, Callable


async def _drop(payload: str) -> str:
    return "dropped:" + payload


class Validator:
    def __init__(self, forbidden: str, on_reject: Callable[[str], Awaitable[str]]) -> None:
        self.forbidden = forbidden
        self.on_reject = on_reject

    async def check(self, payload: str) -> str:
        if self.forbidden in payload:
            return await self.on_reject(payload)
        return "ok:" + payload


def make_validator(settings: dict[str, Any]) -> Validator:
    return Validator(settings.get("forbidden", "!"), settings.get("on_reject", _drop))
