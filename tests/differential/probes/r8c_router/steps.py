"""The application's steps."""
from agent_framework import step


@step
async def issue_refund(text: str) -> str:
    return "refund:" + text


@step
async def track_order(order_id: str) -> str:
    return "tracking:" + order_id


@step
async def escalate_to_human(text: str) -> str:
    return "ticket:" + text


@step
async def research_topic(topic: str) -> str:
    return "notes:" + topic


@step
async def draft_answer(text: str) -> str:
    return "draft:" + text
