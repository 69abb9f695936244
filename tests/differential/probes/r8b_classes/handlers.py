"""Handlers registered by __init_subclass__ and by a class decorator."""
import functools
from typing import ClassVar

from r8b_classes import steps


class Handler:
    registry: ClassVar[dict[str, type["Handler"]]] = {}

    def __init_subclass__(cls, *, kind: str, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        Handler.registry[kind] = cls

    async def run(self, text: str) -> str:
        raise NotImplementedError

    @classmethod
    def for_kind(cls, kind: str) -> "Handler":
        return cls.registry[kind]()


class AuditHandler(Handler, kind="audit"):
    async def run(self, text: str) -> str:
        return await steps.audit_event(text)


class EchoHandler(Handler, kind="echo"):
    async def run(self, text: str) -> str:
        return "echo:" + text


JOBS: dict[str, type] = {}


def job(name: str):  # noqa: ANN201
    """Registers the class under *name* and wraps its async `handle` with timing bookkeeping."""

    def decorate(cls: type) -> type:
        original = cls.handle

        @functools.wraps(original)
        async def handle(self, text: str) -> str:  # noqa: ANN001
            self.calls += 1
            return await original(self, text)

        cls.handle = handle
        cls.calls = 0
        JOBS[name] = cls
        return cls

    return decorate


@job("ship")
class ShipJob:
    async def handle(self, text: str) -> str:
        return await steps.ship_order(text)


@job("preview")
class PreviewJob:
    step_name = steps.ship_order.name

    async def handle(self, text: str) -> str:
        return f"preview:{self.step_name}:{text}"
