"""Infrastructure steps."""
from agent_framework import step


@step
async def start_service(name: str) -> str:
    return "started:" + name


@step
async def stop_service(name: str) -> str:
    return "stopped:" + name


@step
async def probe_endpoint(name: str) -> str:
    return "healthy:" + name


@step
async def warm_cache(region: str) -> str:
    return "warm:" + region
