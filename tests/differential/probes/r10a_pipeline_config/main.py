"""A pipeline described by nested config (JSON and TOML text, and Python literals): stage names resolved with
getattr on a module and through a decorator-filled registry, stage options spread with **, stages switched off
with `enabled = false`, and the stage list sorted by `order`."""
import json
import tomllib
from operator import itemgetter

from agent_framework import step, workflow

from r10a_pipeline_config import pipeline, processors, registry, stages, steps

PIPELINE_JSON = """
{"stages": [
    {"name": "strip_stage", "order": 2},
    {"name": "enrich_stage", "order": 1, "options": {"prefix": "x-"}}
]}
"""

PIPELINE_JSON_OFF = """
{"stages": [
    {"name": "strip_stage", "order": 2},
    {"name": "enrich_stage", "order": 1, "enabled": false, "options": {"prefix": "x-"}}
]}
"""

PIPELINE_TOML = """
[[stages]]
name = "lower_stage"
order = 1

[[stages]]
name = "persist_stage"
order = 5
options = { table = "audit" }
"""

PIPELINE_TOML_PLAIN = """
[[stages]]
name = "lower_stage"
order = 1

[[stages]]
name = "tag_stage"
order = 5
options = { tag = "audit" }

[[stages]]
name = "persist_stage"
order = 9
enabled = false
"""

ORDERED = {
    "stages": [
        {"name": "tag_stage", "order": 30, "options": {"tag": "late"}},
        {"name": "enrich_stage", "order": 10, "options": {"prefix": "early-"}},
        {"name": "lower_stage", "order": 20},
    ]
}

SETTINGS = {
    "processor": "validate",
    "fallback_processor": "normalize",
    "final_step": "score",
    "archive_step": "archive",
    "hooks": {
        "on_done": {"enabled": True},
        "on_error": {"enabled": False},
    },
}


@step
async def by_json_pipeline(record: str) -> str:
    built = pipeline.build(json.loads(PIPELINE_JSON))
    return await pipeline.run_pipeline(built, record)  # expect: STP002


@step
async def near_miss_json_stage_disabled(record: str) -> str:
    built = pipeline.build(json.loads(PIPELINE_JSON_OFF))
    return await pipeline.run_pipeline(built, record)  # imprecise: STP002


@step
async def by_toml_pipeline(record: str) -> str:
    config = tomllib.loads(PIPELINE_TOML)
    return await pipeline.run_pipeline(pipeline.build(config), record)  # unknown: STP002


@step
async def near_miss_toml_stage_disabled(record: str) -> str:
    config = tomllib.loads(PIPELINE_TOML_PLAIN)
    return await pipeline.run_pipeline(pipeline.build(config), record)


@step
async def by_first_stage_in_order(record: str) -> str:
    first = pipeline.build(ORDERED)[0]
    return await first.run(record)  # expect: STP002


@step
async def near_miss_last_stage_in_order(record: str) -> str:
    entries = sorted(ORDERED["stages"], key=itemgetter("order"), reverse=True)
    top = entries[0]
    func = getattr(stages, top["name"])
    return await func(record, **top.get("options", {}))  # imprecise: STP002


@step
async def by_registry_processor(record: str) -> str:
    handler = registry.resolve(SETTINGS["processor"])
    return await handler(record)  # expect: STP002


@step
async def near_miss_registry_fallback(record: str) -> str:
    handler = registry.resolve(SETTINGS["fallback_processor"], processors.passthrough)
    return await handler(record)


@step
async def by_spread_sink_options(record: str) -> str:
    options = {"sink": steps.notify, "retries": 1}
    return await stages.publish_stage(record, **options)  # expect: STP002


@step
async def near_miss_spread_zero_retries(record: str) -> str:
    options = {"sink": steps.notify, "retries": 0}
    return await stages.publish_stage(record, **options)  # imprecise: STP002


@step
async def by_step_named_in_config(record: str) -> str:
    final = getattr(steps, SETTINGS["final_step"])
    return await final(record)  # expect: STP001


@step
async def near_miss_step_name_missing(record: str) -> str:
    final = getattr(steps, SETTINGS["archive_step"], None) or stages.lower_stage
    return await final(record)


@step
async def by_enabled_hook(record: str) -> str:
    hook = SETTINGS["hooks"]["on_done"]
    finish = (lambda r: steps.score("done:" + r)) if hook["enabled"] else (lambda r: stages.lower_stage(r))  # expect: STP001
    return await finish(record)


@step
async def near_miss_disabled_hook(record: str) -> str:
    hook = SETTINGS["hooks"]["on_error"]
    finish = (lambda r: steps.score("error:" + r)) if hook["enabled"] else (lambda r: stages.lower_stage(r))  # imprecise: STP001
    return await finish(record)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_json_pipeline(mode), await near_miss_json_stage_disabled(mode),
        await by_toml_pipeline(mode), await near_miss_toml_stage_disabled(mode),
        await by_first_stage_in_order(mode), await near_miss_last_stage_in_order(mode),
        await by_registry_processor(mode), await near_miss_registry_fallback(mode),
        await by_spread_sink_options(mode), await near_miss_spread_zero_retries(mode),
        await by_step_named_in_config(mode), await near_miss_step_name_missing(mode),
        await by_enabled_hook(mode), await near_miss_disabled_hook(mode),
    ]
    return "|".join(parts)
