"""An ETL pipeline built from generators: records are extracted by a generator (delegating with `yield from`),
batched with `itertools.islice` and loaded by a consumer whose sink is a step or a plain async function; transform
stages are composed from a list of functions (sync, via functools.reduce) or run as an async chain, selected by
name from a config dict of strings to functions; async-generator stages (`async for` over a stage that awaits a
step per record) chosen from a registry; a generator that yields pending step coroutines consumed by the step body;
`map`/`filter` over records with bound methods, one of which awaits a step; a Loader whose durable flag picks the
step sink. Near misses: the same shapes with the plain sink, the plain stage names, the cleaning generator stage,
a generator that only passes the step along, a checker in non-strict mode and a non-durable loader."""
from agent_framework import step, workflow

from r9a_etl.loading import Loader, load_batches
from r9a_etl.records import batched, extract, with_header
from r9a_etl.steps import memory_sink, store_batch
from r9a_etl.transforms import (
    GENERATOR_STAGES,
    RemoteChecker,
    Rules,
    add_region,
    aiter_records,
    apply_named,
    run_chain,
    tag_big,
    transform,
    trim_city,
    upper_name,
    validation_jobs,
    validation_plan,
)
from r9a_etl.steps import enrich


@step
async def by_batched_step_sink(mode: str) -> str:
    batches = batched(extract(), 2)
    loaded = await load_batches(batches, sink=store_batch)  # expect: STP002
    return f"{mode}:loaded={loaded}"


@step
async def near_miss_batched_memory_sink(mode: str) -> str:
    batches = batched(extract(), 2)
    loaded = await load_batches(batches, sink=memory_sink)
    return f"{mode}:mem={loaded}"


@step
async def by_async_generator_stage(mode: str) -> str:
    stage = GENERATOR_STAGES["enrich"]
    names = []
    async for record in stage(aiter_records(extract())):  # expect: STP002
        names.append(record["name"])
    return ",".join(names)


@step
async def near_miss_cleaning_generator_stage(mode: str) -> str:
    stage = GENERATOR_STAGES["clean"]
    names = []
    async for record in stage(aiter_records(extract())):
        names.append(record["name"])
    return ",".join(names)


@step
async def by_named_stages_from_config(mode: str) -> str:
    config = {"stages": "trim,geo"}
    record = next(extract())
    record = await apply_named(record, config["stages"].split(","))  # expect: STP002
    return record["geo"]


@step
async def near_miss_named_plain_stages(mode: str) -> str:
    config = {"stages": "trim,region"}
    record = next(extract())
    record = await apply_named(record, config["stages"].split(","))
    return record["region"]


@step
async def by_async_chain_with_step(mode: str) -> str:
    record = next(extract())
    record = await run_chain(record, [trim_city, enrich, add_region])  # expect: STP002
    return str(record.get("enriched"))


@step
async def near_miss_sync_composed_transform(mode: str) -> str:
    # the composed pipeline is sync; the enrich step is listed in the stage config but never selected
    available = {"upper": upper_name, "big": tag_big, "enrich": enrich}
    chosen = [available[name] for name in ("upper", "big")]
    rows = list(transform(with_header(), chosen))
    return str(sum(1 for r in rows if r["big"]))


@step
async def by_generator_of_pending_validations(mode: str) -> str:
    results = []
    for pending in validation_jobs(extract()):  # expect: STP002
        results.append(await pending)
    return str(all(results))


@step
async def near_miss_validator_passed_along(mode: str) -> str:
    kept = []
    for record, validator in validation_plan(with_header()):
        if record["amount"] > 1000:
            kept.append(await validator(record["id"]))  # imprecise: STP001
        else:
            kept.append(record["id"])
    return ",".join(map(str, kept))


@step
async def by_map_over_bound_method(mode: str) -> str:
    rules = Rules(min_amount=90)
    checker = RemoteChecker(strict=True)
    verdicts = []
    for check in map(checker.check, filter(rules.keep, extract())):
        verdicts.append(await check)  # expect: STP002
    return str(verdicts)


@step
async def near_miss_map_non_strict_checker(mode: str) -> str:
    rules = Rules(min_amount=90)
    checker = RemoteChecker(strict=False)
    verdicts = []
    for check in map(checker.check, filter(rules.keep, extract())):
        verdicts.append(await check)
    labels = list(map(rules.label, filter(rules.keep, extract())))
    return str(verdicts) + ";".join(labels)


@step
async def by_durable_loader(mode: str) -> str:
    loader = Loader(durable=mode == "a")
    return str(await loader.load(extract()))  # expect: STP002


@step
async def near_miss_buffer_loader(mode: str) -> str:
    loader = Loader(durable=mode == "z")
    return str(await loader.load(with_header()))  # imprecise: STP002


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_batched_step_sink(mode), await near_miss_batched_memory_sink(mode),
        await by_async_generator_stage(mode), await near_miss_cleaning_generator_stage(mode),
        await by_named_stages_from_config(mode), await near_miss_named_plain_stages(mode),
        await by_async_chain_with_step(mode), await near_miss_sync_composed_transform(mode),
        await by_generator_of_pending_validations(mode), await near_miss_validator_passed_along(mode),
        await by_map_over_bound_method(mode), await near_miss_map_non_strict_checker(mode),
        await by_durable_loader(mode), await near_miss_buffer_loader(mode),
    ]
    return "|".join(parts)
