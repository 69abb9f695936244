"""Network-facing steps of the client layer."""
from agent_framework import step


@step
async def send_request(line: str) -> str:
    return "resp:" + line


@step
async def open_connection(host: str) -> str:
    return "conn:" + host


@step
async def close_connection(host: str) -> str:
    return "closed:" + host


@step
async def record_metric(name: str) -> str:
    return "metric:" + name
