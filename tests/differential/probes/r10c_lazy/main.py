"""Lazy evaluation around steps: a Lazy value whose factory is a lambda written in the step or a partial of a
step (forced, and never forced), thunks forced only under a condition (true, false; one chosen from a dict), a
generator yielding thunks (drained, and cut short by islice), itertools.chain over thunk lists (run to the end,
and left by break), and functools.cached_property holding a loader closure or a step itself (online, offline)."""
import itertools
from functools import partial

from agent_framework import step, workflow

from r10c_lazy.lazy import Lazy, cheap_summary, echo, force_if, plan, thunk_of
from r10c_lazy.reports import Report
from r10c_lazy.steps import finalize, heavy_report, load_profile


@step
async def by_lazy_lambda(key: str) -> str:
    profile = Lazy(lambda: load_profile(key))  # expect: STP001
    first = await profile.get()
    again = await profile.get()
    return first + again


@step
async def by_lazy_partial(key: str) -> str:
    profile = Lazy(partial(load_profile, key))
    return await profile.get()  # expect: STP002


@step
async def near_miss_lazy_never_forced(key: str) -> str:
    profile = Lazy(lambda: load_profile(key))  # imprecise: STP001
    if key == "force":
        return await profile.get()
    return "skipped:" + str(profile.forced)


@step
async def by_conditional_thunk(key: str) -> str:
    report = thunk_of(heavy_report, key)
    return await force_if(len(key) > 0, report, "none")  # expect: STP002


@step
async def near_miss_conditional_thunk(key: str) -> str:
    report = thunk_of(heavy_report, key)
    return await force_if(len(key) > 100, report, "none")  # imprecise: STP002


@step
async def near_miss_thunk_table(key: str) -> str:
    table = {"full": lambda: heavy_report(key), "brief": lambda: cheap_summary(key)}  # imprecise: STP001
    choice = "full" if key.startswith("#") else "brief"
    return await table[choice]()


@step
async def by_generator_of_thunks(key: str) -> str:
    results = []
    for thunk in plan([key, "!" + key, key]):
        results.append(await thunk())  # expect: STP002
    return ",".join(results)


@step
async def near_miss_generator_cut_short(key: str) -> str:
    results = []
    for thunk in itertools.islice(plan([key, "!" + key]), 1):
        results.append(await thunk())  # imprecise: STP002
    return ",".join(results)


@step
async def by_chained_thunks(key: str) -> str:
    before = [thunk_of(echo, "start")]
    middle = [thunk_of(echo, key), thunk_of(echo, key + "2")]
    after = [thunk_of(finalize, key)]
    outputs = [await thunk() for thunk in itertools.chain(before, middle, after)]  # expect: STP002
    return ",".join(outputs)


@step
async def near_miss_chain_left_early(key: str) -> str:
    before = [thunk_of(echo, "start")]
    middle = [thunk_of(echo, key), thunk_of(echo, "stop")]
    after = [thunk_of(finalize, key)]
    outputs = []
    for thunk in itertools.chain(before, middle, after):
        value = await thunk()  # imprecise: STP002
        outputs.append(value)
        if value.endswith("stop"):
            break
    return ",".join(outputs)


@step
async def by_cached_property_loader(key: str) -> str:
    report = Report(key)
    return await report.loader()  # expect: STP002


@step
async def near_miss_cached_property_offline(key: str) -> str:
    report = Report(key, offline=True)
    return await report.loader()


@step
async def by_cached_property_step(key: str) -> str:
    report = Report(key)
    first = await report.renderer(key)  # expect: STP001
    return first


@workflow
async def flow(mode: str) -> str:
    parts = [
        await by_lazy_lambda(mode), await by_lazy_partial(mode), await near_miss_lazy_never_forced(mode),
        await by_conditional_thunk(mode), await near_miss_conditional_thunk(mode), await near_miss_thunk_table(mode),
        await by_generator_of_thunks(mode), await near_miss_generator_cut_short(mode), await by_chained_thunks(mode),
        await near_miss_chain_left_early(mode), await by_cached_property_loader(mode),
        await near_miss_cached_property_offline(mode), await by_cached_property_step(mode),
    ]
    return "|".join(parts)
