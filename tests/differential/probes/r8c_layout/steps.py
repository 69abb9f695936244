"""The application's steps."""
from agent_framework import step


@step
async def draft_plan(goal: str) -> str:
    return "plan:" + goal


@step
async def review_draft(text: str) -> str:
    return "reviewed:" + text


@step
async def render_chart(data: str) -> str:
    return "chart:" + data


@step
async def export_pdf(text: str) -> str:
    return "pdf:" + text


@step
async def charge_card(text: str) -> str:
    return "charged:" + text


@step
async def publish_post(text: str) -> str:
    return "published:" + text
