"""The incoming-webhook dispatcher: verify the signature, parse the body, pick a handler class, or dead-letter."""
from __future__ import annotations

import hmac
import inspect
import json
from typing import Any, Awaitable, Callable, Optional

from r9c_webhooks import handlers as h
from r9c_webhooks.payloads import SECRET, sign

# event family -> object status -> handler class
ROUTES: dict[str, dict[str, type[h.Handler]]] = {
    "invoice": {"paid": h.InvoicePaidHandler, "open": h.InvoiceOpenHandler},
    "charge": {"refunded": h.ChargeRefundedHandler, "succeeded": h.ChargeSucceededHandler},
}

_REGISTRY: dict[tuple[str, str], type[h.Handler]] = {}


def on(event_type: str, status: str) -> Callable[[type[h.Handler]], type[h.Handler]]:
    def register(cls: type[h.Handler]) -> type[h.Handler]:
        _REGISTRY[(event_type, status)] = cls
        return cls

    return register


on("customer.subscription.updated", "active")(h.SubscriptionHandler)
on("customer.subscription.updated", "past_due")(h.SubscriptionPastDueHandler)


def route_by_status(payload: dict[str, Any]) -> Optional[type[h.Handler]]:
    family = payload["type"].split(".", 1)[0]
    status = payload["data"]["object"].get("status")
    return ROUTES.get(family, {}).get(status)


def route_by_shape(payload: dict[str, Any]) -> Optional[type[h.Handler]]:
    match payload:
        case {"type": "customer.created", "data": {"object": {"email": str()}}}:
            return h.WelcomeHandler
        case {"type": "customer.deleted"}:
            return h.FarewellHandler
        case {"type": str(kind)} if kind.startswith("test."):
            return h.PingHandler
        case _:
            return None


def route_by_registry(payload: dict[str, Any]) -> Optional[type[h.Handler]]:
    return _REGISTRY.get((payload["type"], payload["data"]["object"]["status"]))


class DeadLetterBox:
    def __init__(self) -> None:
        self.items: list[str] = []

    def __call__(self, event_type: str) -> str:
        self.items.append(event_type)
        return f"dead-letter:{event_type}"


Router = Callable[[dict[str, Any]], Optional[type[h.Handler]]]
Sink = Callable[[str], Any]


class WebhookDispatcher:
    def __init__(self, router: Router = route_by_status, *, secret: bytes = SECRET,
                 dead_letter: Optional[Sink] = None) -> None:
        self.router = router
        self.secret = secret
        self.dead_letter: Sink = dead_letter or DeadLetterBox()
        self.rejected: list[str] = []

    def verify(self, body: str, signature: str) -> bool:
        return hmac.compare_digest(sign(body, self.secret), signature)

    async def receive(self, body: str, signature: str) -> str:
        if not self.verify(body, signature):
            self.rejected.append(signature[:8])
            return "rejected"
        payload = json.loads(body)
        handler_cls = self.router(payload)
        if handler_cls is None:
            return await self._dead_letter(payload)
        return await handler_cls().handle(payload)

    async def _dead_letter(self, payload: dict[str, Any]) -> str:
        outcome = self.dead_letter(payload["type"])
        if inspect.isawaitable(outcome):
            outcome = await outcome
        return outcome
