"""Inner steps run by scheduled jobs."""
from agent_framework import step


@step
async def send_digest(user: str) -> str:
    return f"digest:{user}"


@step
async def rotate_logs(target: str) -> str:
    return f"rotated:{target}"


@step
async def publish_report(name: str, beat: int) -> str:
    return f"report:{name}@{beat}"


@step
async def deliver(channel: str, text: str) -> str:
    return f"{channel}<-{text}"
