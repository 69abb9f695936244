"""Inner steps of the enums/state-machine program and plain counterparts."""
from agent_framework import step


@step
async def send_sms(message: str) -> str:
    return "sms:" + message


@step
async def upload(payload: str) -> str:
    return "uploaded:" + payload


@step
async def start_job(payload: str) -> str:
    return "started:" + payload


@step
async def checkpoint(payload: str) -> str:
    return "checkpoint:" + payload


@step
async def escalate(payload: str) -> str:
    return "escalated:" + payload


@step
async def write_file(payload: str) -> str:
    return "written:" + payload


@step
async def purge(payload: str) -> str:
    return "purged:" + payload


async def preview(payload: str) -> str:
    return "preview:" + payload


async def batch(payload: str) -> str:
    return "batched:" + payload
