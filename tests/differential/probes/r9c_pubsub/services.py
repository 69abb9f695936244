"""Service objects whose bound methods are subscribers."""
from __future__ import annotations

from r9c_pubsub import steps
from r9c_pubsub.broker import Broker, Event


class OrderService:
    def __init__(self) -> None:
        self.seen: list[str] = []

    async def on_order_created(self, event: Event) -> str:
        self.seen.append(event.payload)
        return await steps.persist_order(event.payload)

    async def on_order_event(self, event: Event) -> str:
        # only persists real orders; test orders are just remembered
        if event.payload.startswith("test-"):
            self.seen.append(event.payload)
            return "ignored"
        return await steps.persist_order(event.payload)


class AuditTrail:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.lines: list[str] = []

    def record(self, event: Event) -> str:
        line = f"{self.prefix}:{event.topic}:{event.payload}"
        self.lines.append(line)
        return line

    async def archive(self, event: Event) -> str:
        return await steps.write_audit(f"{self.prefix}/{event.topic}")


class OneShotIndexer:
    """Unsubscribes itself after the first event it sees."""

    def __init__(self, broker: Broker) -> None:
        self.subscription = broker.subscribe("docs.*", self.on_doc)
        self.count = 0

    async def on_doc(self, event: Event) -> str:
        self.count += 1
        self.subscription.cancel()
        return await steps.index_document(event.payload)


async def notify_channel(channel: str, event: Event) -> str:
    return await steps.send_alert(channel, event.payload)


def log_to(sink: list, event: Event) -> str:
    sink.append(event.topic)
    return event.topic
