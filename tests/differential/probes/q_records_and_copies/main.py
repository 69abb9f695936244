"""More idioms of application code: static and class methods, defaults, keyword forwarding, builders that return
self, dataclass factories, getattr with a literal, shield and ensure_future, conditional picks, copies."""
import asyncio
import copy
import dataclasses
from dataclasses import dataclass, field

from agent_framework import step, workflow


@step
async def fetch(label: str) -> str:
    return "fetch:" + label


async def plain(label: str) -> str:
    return "plain:" + label


class Tools:
    run = staticmethod(fetch)
    quiet = staticmethod(plain)

    @classmethod
    def chosen(cls):  # noqa: ANN206
        return cls.run


async def with_default(label: str, runner=fetch) -> str:  # noqa: ANN001
    return await runner(label)


async def forward(function, **options):  # noqa: ANN001, ANN003, ANN201
    return await function(**options)


class Builder:
    def __init__(self) -> None:
        self.runner = plain

    def using(self, runner):  # noqa: ANN001, ANN201
        self.runner = runner
        return self

    async def go(self, label: str) -> str:
        return await self.runner(label)


@dataclass
class Settings:
    runner: object = field(default_factory=lambda: fetch)
    quiet: object = field(default_factory=lambda: plain)


class Base:
    def __init__(self, runner) -> None:  # noqa: ANN001
        self.runner = runner


class Child(Base):
    def __init__(self) -> None:
        super().__init__(runner=fetch)


@step
async def by_staticmethod(label: str) -> str:
    return await Tools.run(label)  # expect: STP001


@step
async def near_miss_staticmethod(label: str) -> str:
    return await Tools.quiet(label)


@step
async def by_classmethod(label: str) -> str:
    return await Tools.chosen()(label)  # expect: STP001


@step
async def by_default_argument(label: str) -> str:
    return await with_default(label)  # expect: STP002


@step
async def near_miss_default_argument(label: str) -> str:
    return await with_default(label, plain)


@step
async def by_keyword_forwarding(label: str) -> str:
    return await forward(fetch, label=label)  # expect: STP002


@step
async def by_builder(label: str) -> str:
    return await Builder().using(fetch).go(label)  # expect: STP002


@step
async def near_miss_builder(label: str) -> str:
    return await Builder().go(label)


@step
async def by_dataclass_factory(label: str) -> str:
    return await Settings().runner(label)  # expect: STP001


@step
async def near_miss_dataclass_factory(label: str) -> str:
    return await Settings().quiet(label)


@step
async def by_super_init(label: str) -> str:
    return await Child().runner(label)  # expect: STP001


@step
async def by_getattr_literal(label: str) -> str:
    return await getattr(Tools, "run")(label)  # expect: STP001


@step
async def by_shield(label: str) -> str:
    return await asyncio.shield(fetch(label))  # expect: STP001


@step
async def by_conditional_pick(label: str) -> str:
    return await (fetch if label else plain)(label)  # expect: STP001


@step
async def by_or_default(label: str) -> str:
    chosen = None
    return await (chosen or fetch)(label)  # expect: STP001


@step
async def by_min_key(label: str) -> str:
    return await min([plain, fetch], key=lambda f: f.__name__ != "fetch")(label)  # expect: STP001


@step
async def by_copy(label: str) -> str:
    return await copy.copy(Child()).runner(label)  # expect: STP001


@step
async def near_miss_copy(label: str) -> str:
    return await copy.copy(Builder()).runner(label)


@step
async def near_miss_deepcopy(label: str) -> str:
    return await copy.deepcopy(Settings()).quiet(label)


@step
async def by_replace(label: str) -> str:
    return await dataclasses.replace(Settings(), quiet=fetch).quiet(label)  # expect: STP001


@step
async def near_miss_replace(label: str) -> str:
    return await dataclasses.replace(Settings(), runner=plain).runner(label)


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_staticmethod(mode), await near_miss_staticmethod(mode), await by_classmethod(mode),
        await by_default_argument(mode), await near_miss_default_argument(mode), await by_keyword_forwarding(mode),
        await by_builder(mode), await near_miss_builder(mode), await by_dataclass_factory(mode),
        await near_miss_dataclass_factory(mode), await by_super_init(mode), await by_getattr_literal(mode),
        await by_shield(mode), await by_conditional_pick(mode), await by_or_default(mode), await by_min_key(mode),
        await by_copy(mode), await near_miss_copy(mode), await near_miss_deepcopy(mode), await by_replace(mode),
        await near_miss_replace(mode),
    ]
    return "|".join(parts)
