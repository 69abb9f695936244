"""Handler classes, one per kind of event."""
from __future__ import annotations

from typing import Any

from r9c_webhooks import steps

Payload = dict[str, Any]


class Handler:
    async def handle(self, payload: Payload) -> str:
        raise NotImplementedError

    @staticmethod
    def obj(payload: Payload) -> Payload:
        return payload["data"]["object"]


class InvoicePaidHandler(Handler):
    async def handle(self, payload: Payload) -> str:
        invoice = self.obj(payload)
        return await steps.record_payment(invoice["id"], invoice["amount_paid"])


class InvoiceOpenHandler(Handler):
    async def handle(self, payload: Payload) -> str:
        return f"dunning:{self.obj(payload)['id']}"


class ChargeRefundedHandler(Handler):
    async def handle(self, payload: Payload) -> str:
        return await steps.issue_refund(self.obj(payload)["id"])


class ChargeSucceededHandler(Handler):
    async def handle(self, payload: Payload) -> str:
        return f"captured:{self.obj(payload)['id']}"


class WelcomeHandler(Handler):
    async def handle(self, payload: Payload) -> str:
        return await steps.send_welcome(self.obj(payload)["email"])


class FarewellHandler(Handler):
    async def handle(self, payload: Payload) -> str:
        return f"bye:{self.obj(payload)['id']}"


class PingHandler(Handler):
    async def handle(self, payload: Payload) -> str:
        return f"pong:{payload['id']}"


class SubscriptionHandler(Handler):
    async def handle(self, payload: Payload) -> str:
        sub = self.obj(payload)
        return await steps.activate_plan(sub["id"], sub["plan"])


class SubscriptionPastDueHandler(Handler):
    async def handle(self, payload: Payload) -> str:
        return f"reminder:{self.obj(payload)['id']}"
