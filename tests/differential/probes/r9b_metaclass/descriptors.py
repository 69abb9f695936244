"""Descriptors registering handlers at class creation via __set_name__."""
from __future__ import annotations

from typing import Any, Awaitable, Callable

from r9b_metaclass import steps

Handler = Callable[[Any, str], Awaitable[str]]


class handles:
    """Method decorator-descriptor: records the event in the owner's routing table under the attribute name."""

    def __init__(self, event: str) -> None:
        self.event = event
        self.func: Handler | None = None

    def __call__(self, func: Handler) -> handles:
        self.func = func
        return self

    def __set_name__(self, owner: type, name: str) -> None:
        routes = owner.__dict__.get("routes")
        if routes is None:
            routes = {}
            setattr(owner, "routes", routes)
        routes[self.event] = name

    def __get__(self, instance: Any, owner: type) -> Any:
        if instance is None:
            return self
        assert self.func is not None
        return self.func.__get__(instance, owner)


class StepSlot:
    """Exposes a step as an attribute of instances; the owner remembers which slots it has."""

    def __init__(self, target: Any) -> None:
        self.target = target
        self.attr = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.attr = name
        owner.slots = getattr(owner, "slots", ()) + (name,)

    def __get__(self, instance: Any, owner: type) -> Any:
        return self.target


class Router:
    routes: dict[str, str]

    @handles("created")
    async def on_created(self, payload: str) -> str:
        return await steps.create_record(payload)

    @handles("deleted")
    async def on_deleted(self, payload: str) -> str:
        return "gone:" + payload

    async def dispatch(self, event: str, payload: str) -> str:
        name = type(self).routes.get(event)
        if name is None:
            return "unrouted:" + payload
        handler = getattr(self, name)
        return await handler(payload)


class AuditedRouter(Router):
    audit = StepSlot(steps.audit)
    undo = StepSlot(steps.rollback)
