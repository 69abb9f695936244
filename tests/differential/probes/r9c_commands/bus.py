"""A command bus: command classes mapped to handlers, with middleware wrapped around dispatch."""
from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from r9c_commands import steps

Handler = Callable[[Any], Awaitable[Any]]
Middleware = Callable[[Handler, Any], Awaitable[Any]]


@dataclass(frozen=True)
class CreateOrder:
    order_id: str
    qty: int = 1
    dry_run: bool = False


@dataclass(frozen=True)
class CancelOrder:
    order_id: str
    dry_run: bool = False


@dataclass(frozen=True)
class ShipOrder:
    order_id: str
    dry_run: bool = False


@dataclass(frozen=True)
class ArchiveOrder:
    order_id: str
    dry_run: bool = False


class CommandBus:
    def __init__(self) -> None:
        self._handlers: dict[type, Handler] = {}
        self._middleware: list[Middleware] = []
        self.unhandled: list[Any] = []

    def register(self, command_type: type, handler: Handler) -> None:
        self._handlers[command_type] = handler

    def use(self, middleware: Middleware) -> "CommandBus":
        self._middleware.append(middleware)
        return self

    async def dispatch(self, command: Any) -> Any:
        handler = self._handlers.get(type(command))
        if handler is None:
            self.unhandled.append(command)
            return f"unhandled:{type(command).__name__}"
        call: Handler = handler
        for middleware in reversed(self._middleware):
            call = functools.partial(middleware, call)
        result = call(command)
        if inspect.isawaitable(result):
            result = await result
        return result


# -- handlers -------------------------------------------------------------------------------------------------

async def handle_create(command: CreateOrder) -> str:
    return await steps.save_order(command.order_id, command.qty)


async def handle_cancel(command: CancelOrder) -> str:
    return f"cancelled:{command.order_id}"


def ship_with_step(command: ShipOrder) -> Awaitable[str]:
    return steps.ship_parcel(command.order_id)


# -- middleware -----------------------------------------------------------------------------------------------

class Journal:
    def __init__(self) -> None:
        self.entries: list[str] = []

    async def __call__(self, next_handler: Handler, command: Any) -> Any:
        self.entries.append(type(command).__name__)
        return await next_handler(command)


async def dry_run_guard(next_handler: Handler, command: Any) -> Any:
    if getattr(command, "dry_run", False):
        return f"dry-run:{type(command).__name__}"
    return await next_handler(command)
