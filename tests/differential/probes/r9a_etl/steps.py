"""The pipeline's durable steps, and the plain async functions that stand in for them in tests."""
from agent_framework import step


@step
async def enrich(record: dict) -> dict:
    return {**record, "enriched": True}


@step
async def geocode(city: str) -> str:
    return "geo:" + city


@step
async def validate_remote(record_id: str) -> bool:
    return not record_id.endswith("x")


@step
async def store_batch(batch: list) -> int:
    return len(batch)


async def memory_sink(batch: list) -> int:
    return len(batch)


async def local_validate(record_id: str) -> bool:
    return bool(record_id)
