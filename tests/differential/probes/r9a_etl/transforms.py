"""Transform stages: sync record functions, async stages, generator stages and a stage registry."""
from functools import reduce
from typing import AsyncIterator, Awaitable, Callable, Iterable, Iterator

from r9a_etl.steps import enrich, geocode, validate_remote


def upper_name(record: dict) -> dict:
    return {**record, "name": record["name"].upper()}


def tag_big(record: dict) -> dict:
    return {**record, "big": record["amount"] > 100}


def compose(*funcs: Callable[[dict], dict]) -> Callable[[dict], dict]:
    return reduce(lambda f, g: lambda r: g(f(r)), funcs, lambda r: r)


def transform(records: Iterable[dict], stages: list) -> Iterator[dict]:
    pipeline = compose(*stages)
    for record in records:
        yield pipeline(record)


async def trim_city(record: dict) -> dict:
    return {**record, "city": record["city"].strip()}


async def add_region(record: dict) -> dict:
    return {**record, "region": "eu"}


async def geocode_stage(record: dict) -> dict:
    return {**record, "geo": await geocode(record["city"])}


async def run_chain(record: dict, funcs: list[Callable[[dict], Awaitable[dict]]]) -> dict:
    for fn in funcs:
        record = await fn(record)
    return record


ASYNC_STAGES: dict[str, Callable[[dict], Awaitable[dict]]] = {
    "trim": trim_city,
    "region": add_region,
    "geo": geocode_stage,
}


async def apply_named(record: dict, names: list[str]) -> dict:
    for name in names:
        record = await ASYNC_STAGES[name](record)
    return record


async def aiter_records(records: Iterable[dict]) -> AsyncIterator[dict]:
    for record in records:
        yield record


async def enrich_stage(records: AsyncIterator[dict]) -> AsyncIterator[dict]:
    async for record in records:
        yield await enrich(record)


async def clean_stage(records: AsyncIterator[dict]) -> AsyncIterator[dict]:
    async for record in records:
        yield upper_name(record)


GENERATOR_STAGES = {"clean": clean_stage, "enrich": enrich_stage}


def validation_jobs(records: Iterable[dict]) -> Iterator:
    """Yields one pending validation per record (coroutines created here, awaited by the consumer)."""
    yield from (validate_remote(r["id"]) for r in records)


def validation_plan(records: Iterable[dict]) -> Iterator[tuple]:
    """Yields (record, validator) pairs; the consumer decides whether to run the validator."""
    for record in records:
        yield record, validate_remote


class Rules:
    def __init__(self, min_amount: int) -> None:
        self.min_amount = min_amount

    def keep(self, record: dict) -> bool:
        return record["amount"] >= self.min_amount

    def label(self, record: dict) -> str:
        return f"{record['name']}:{record['amount']}"


class RemoteChecker:
    def __init__(self, strict: bool) -> None:
        self.strict = strict

    async def check(self, record: dict) -> bool:
        if self.strict:
            return await validate_remote(record["id"])
        return True
