"""Listeners whose handler map is filled by an @on decorator and resolved with getattr at init."""
from __future__ import annotations

from typing import Any, Awaitable, Callable, TypeVar

from r9b_metaclass import steps

F = TypeVar("F", bound=Callable[..., Awaitable[str]])


def on(*events: str) -> Callable[[F], F]:
    def mark(func: F) -> F:
        setattr(func, "__events__", getattr(func, "__events__", ()) + events)
        return func

    return mark


class Listener:
    def __init__(self) -> None:
        self._handlers: dict[str, list[Callable[[str], Awaitable[str]]]] = {}
        for name in dir(type(self)):
            member = getattr(type(self), name, None)
            for event in getattr(member, "__events__", ()):
                self._handlers.setdefault(event, []).append(getattr(self, name))

    async def emit(self, event: str, payload: str) -> str:
        results = [await handler(payload) for handler in self._handlers.get(event, [])]
        return ";".join(results) or "ignored"


class BillingListener(Listener):
    @on("paid", "renewed")
    async def charge(self, payload: str) -> str:
        return await steps.charge_card(payload)

    @on("refunded")
    async def refund(self, payload: str) -> str:
        return "refund:" + payload

    async def helper(self, payload: str) -> str:
        return await steps.charge_card(payload)


class Codec:
    _variants: dict[str, type[Codec]] = {}
    label = "base"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Codec._variants[cls.label] = cls

    def __class_getitem__(cls, label: str) -> type[Codec]:
        return cls._variants[label]

    async def encode(self, payload: str) -> str:
        return payload


class JsonCodec(Codec):
    label = "json"

    async def encode(self, payload: str) -> str:
        return await steps.encode_json(payload)


class TextCodec(Codec):
    label = "text"

    async def encode(self, payload: str) -> str:
        return payload.encode("utf-8").decode("ascii", "replace")
