"""Processors registered under config names."""
from r10a_pipeline_config import steps
from r10a_pipeline_config.registry import register


@register("validate")
async def validating_processor(record: str) -> str:
    checked = await steps.validate(record)
    return checked


@register("dedupe")
async def dedupe_processor(record: str) -> str:
    return "".join(dict.fromkeys(record))


async def passthrough(record: str) -> str:
    return record
