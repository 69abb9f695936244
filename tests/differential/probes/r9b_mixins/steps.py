"""Inner steps of the mixins program and the plain stand-ins it is configured with."""
from agent_framework import step


@step
async def perform_request(request: str) -> str:
    return "performed:" + request


@step
async def record_metric(name: str) -> str:
    return "metric:" + name


@step
async def send_email(message: str) -> str:
    return "email:" + message


@step
async def call_gateway(payload: str) -> str:
    return "gateway:" + payload


@step
async def compute(payload: str) -> str:
    return "computed:" + payload


@step
async def forward_packet(payload: str) -> str:
    return "forwarded:" + payload


@step
async def run_stage(payload: str) -> str:
    return "stage:" + payload


async def plain_compute(payload: str) -> str:
    return "dry:" + payload


async def plain_stage(payload: str) -> str:
    return "local-stage:" + payload


async def queue_message(message: str) -> str:
    return "queued:" + message
