"""Stage implementations, looked up by name (``getattr``) from the pipeline config."""
from r10a_pipeline_config import steps


async def strip_stage(record: str, **options: object) -> str:
    return record.strip()


async def lower_stage(record: str, **options: object) -> str:
    return record.lower()


async def tag_stage(record: str, *, tag: str = "t", **options: object) -> str:
    return f"{tag}:{record}"


async def enrich_stage(record: str, *, prefix: str = "", **options: object) -> str:
    return await steps.enrich(prefix + record)


async def persist_stage(record: str, *, table: str = "events", **options: object) -> str:
    return await steps.persist(f"{table}/{record}")


async def _log_sink(record: str) -> str:
    return "log:" + record


async def publish_stage(record: str, *, sink=None, retries: int = 1, **options: object) -> str:
    target = sink or _log_sink
    result = record
    for _ in range(retries):
        result = await target(result)
    return result
