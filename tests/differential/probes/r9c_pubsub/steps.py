"""Inner steps reached by subscribers, commands and jobs."""
from agent_framework import step

from r9c_pubsub.broker import Event


@step
async def persist_order(order_id: str) -> str:
    return f"persisted:{order_id}"


@step
async def send_alert(channel: str, text: str) -> str:
    return f"alert[{channel}]:{text}"


@step
async def write_audit(entry: str) -> str:
    return f"audit:{entry}"


@step
async def index_document(doc: str) -> str:
    return f"indexed:{doc}"


@step
async def forward_event(channel: str, event: Event) -> str:
    return f"forward[{channel}]:{event.topic}={event.payload}"
