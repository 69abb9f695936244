"""The replay fuzzer's workflow and its runs: one program under MAF alone or under the shim (issue 27, item 6).

One workflow interprets the program set in ``PLAN`` before each run: its steps
find their nested calls by their label, so the workflow's code (and MAF's
signature hash) is the same for every program. A scenario runs the program
uninterrupted, then crashes it (a body raising ``Crash`` at its Nth entry),
answers every pause, and resumes from the latest or an earlier checkpoint,
possibly with the calls in another order. What it saw goes into an ``Outcome``.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import agent_framework as maf
from pydantic import BaseModel, PrivateAttr, computed_field
from agent_framework._workflows._functional import get_run_context
from replay_fuzz_model import MEMO_LABEL, Call, Color, Group, canonical, color_of, expected_value, walk

from steplint.runtime_shim import ReplayMismatchError
from steplint.runtime_shim.frames import current_step_frame
from steplint.runtime_shim.run_state import run_state_of


class Crash(Exception):
    """The simulated crash of the first run."""


class Flaky(Exception):
    """A body's first attempt fails; its caller retries."""


class Item(BaseModel):
    label: str
    _secret: str = PrivateAttr(default="")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def shout(self) -> str:  # a function of the fields: left out of the record, never a reason to differ
        return self.label.upper()


class Tags:
    """An argument compared by value whose state is a set of str: its pickle lists them in hash-seed order."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = set(names)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tags) and self.names == other.names

    __hash__ = None  # type: ignore[assignment]


TAGS = ("north", "south", "east", "west", "up", "down", "in", "out")


@dataclass
class Trace:
    """What the bodies and call sites of the current run did."""

    entries: int = 0
    crash_at: int = 0
    failed_once: set[str] = field(default_factory=set)
    completed: Counter[str] = field(default_factory=Counter)
    wrong: list[tuple[str, Any]] = field(default_factory=list)
    contexts: list[weakref.ref[Any]] = field(default_factory=list)  # every run's RunContext, to see it go
    memo_checked: set[str] = field(default_factory=set)  # the shared load's value was checked at its await
    shimmed: list[bool] = field(default_factory=list)  # per run: whether it started under the shim
    # each ReplayMismatchError raised: the refused call's label, the key, the label of the call that made the entry
    refused: list[tuple[str, str, str | None]] = field(default_factory=list)
    nested: int = 0  # bodies that got as far as their nested calls (a body that took a cached value never does)
    failed_in_pass: dict[str, int] = field(default_factory=dict)  # a flaky call -> the run (pass) its attempt failed in
    # calls whose body completed in a later pass than the one their attempt failed in (a pause's replay)
    replayed_retries: set[str] = field(default_factory=set)
    # bodies entered without the shim's frame in a run the shim judged its own (it lost the shim midway)
    unframed: int = 0


PLAN: dict[str, Any] = {"top": (), "calls": {}, "memo": False, "install": None}
TRACE = [Trace()]
MEMO: dict[str, asyncio.Future[Any]] = {}  # the application's memo: one shared load per run


def label_in(item: Item | None, tags: tuple[Any, ...], opts: dict[str, Any], pair: Any = None) -> str:
    """The label a call carries, wherever the generator put it."""
    for carried in (opts.get("mode"), tags[0] if tags else None, pair[0] if pair else None):
        if isinstance(carried, tuple):  # alpha's tuple carrier: (label, 1) among its *tags
            carried = carried[0]
        if carried:
            return str(carried)
    assert item is not None
    return item._secret or item.label


async def body(label: str, ctx: Any = None) -> tuple[Any, ...]:
    call: Call = PLAN["calls"][label]
    trace = TRACE[0]
    trace.entries += 1
    state = run_state_of(get_run_context())
    if state is not None and not state.bypass and current_step_frame.get() is None:
        trace.unframed += 1
    install = PLAN["install"]
    if install is not None and trace.entries >= install[0]:  # install() from outside the run, while it is in flight
        PLAN["install"] = None
        asyncio.get_running_loop().call_soon(install[1])
    if trace.entries == trace.crash_at:
        raise Crash(label)
    if call.flaky and label not in trace.failed_once:
        trace.failed_once.add(label)
        trace.failed_in_pass[label] = len(trace.contexts)
        raise Flaky(label)
    answer = None
    if call.pause:
        request_id = f"q-{label}" if call.pause == "named" else None
        answer = await ctx.request_info({"label": label}, response_type=str, request_id=request_id)
    if call.children:
        trace.nested += 1
    await run_groups(call.children)
    trace.completed[label] += 1
    if trace.failed_in_pass.get(label, len(trace.contexts)) < len(trace.contexts):
        trace.replayed_retries.add(label)
    if PLAN["memo"] and label in PLAN["top_labels"] and MEMO_LABEL not in MEMO:
        MEMO[MEMO_LABEL] = asyncio.ensure_future(delta(MEMO_LABEL))  # started for later, as the body returns
    return (label, color_of(label), answer)


@maf.step
async def delta(name: str) -> tuple[Any, ...]:  # a plain str: MAF 1.20+ refuses a concurrent call it cannot fingerprint
    TRACE[0].completed[name] += 1
    return (name, color_of(name), None)


async def settled_memo() -> None:
    """After each top-level group, the shared load, if a body started it: a task still running when a later call
    takes a call-order entry would meet MAF's own concurrency check, by timing alone."""
    task = MEMO.get(MEMO_LABEL)
    if task is None or task.done() and MEMO_LABEL in TRACE[0].memo_checked:
        return
    value = await task
    TRACE[0].memo_checked.add(MEMO_LABEL)
    if canonical(value) != [MEMO_LABEL, color_of(MEMO_LABEL).value, None]:
        TRACE[0].wrong.append((MEMO_LABEL, canonical(value)))


@maf.step
async def alpha(item: Item | None, *tags: str | tuple[str, int], **opts: str) -> tuple[Any, ...]:
    return await body(label_in(item, tags, opts))


@maf.step
async def beta(item: Item, color: Color, pair: tuple[str, int]) -> tuple[Any, ...]:
    return await body(label_in(item, (), {}, pair))


@maf.step
async def gamma(item: Item, ctx: maf.RunContext, **opts: str) -> tuple[Any, ...]:
    return await body(label_in(item, (), opts), ctx)


def _item(call: Call) -> Item:
    made = Item(label=call.label if call.carrier == "field" else "same")
    if call.carrier == "private":
        made._secret = call.label
    return made


def start(call: Call) -> Any:
    """The step call the program's *call* makes, its label in its carrier."""
    item = None if call.carrier == "plain" else _item(call)
    if call.step == "beta":
        pair = (call.label, 1) if call.carrier == "tuple" else ("", 1)
        return beta(item, color_of(call.label), pair)
    opts: dict[str, Any] = {"mode": call.label} if call.carrier in ("kwarg", "plain") else {}
    if item is not None:  # a call MAF keys by its order anyway: a set in an argument changes nothing for MAF
        opts["where"] = Tags(TAGS)
    if call.step == "gamma":
        return gamma(item, **opts)
    tags = {"vararg": (call.label,), "tuple": ((call.label, 1),)}.get(call.carrier, ())
    return alpha(item, *tags, **opts)


async def invoke(call: Call) -> Any:
    for _attempt in range(2):
        try:
            value = await start(call)
        except Flaky:
            continue
        except ReplayMismatchError as error:
            TRACE[0].refused.append((call.label, error.key, _maker_of(error.key)))
            raise
        if canonical(value) != expected_value(call):
            TRACE[0].wrong.append((call.label, canonical(value)))
        return value
    raise AssertionError(f"{call.label} failed twice")


def _maker_of(key: str) -> str | None:
    """The label of the call whose result the run's cache holds under *key* (as checkpoints spell it: 1.18/1.19
    key the cache by ``(name, index)``). Read from MAF's own dict: the shim's export hook writes records."""
    for cached, value in getattr(get_run_context(), "_step_cache", {}).items():
        spelled = f"{cached[0]}::{cached[1]}" if isinstance(cached, tuple) else cached
        if spelled == key:
            return value[0] if isinstance(value, (list, tuple)) and value and isinstance(value[0], str) else None
    return None


async def gathered(calls: tuple[Call, ...]) -> list[Any]:
    """asyncio.gather that cancels and awaits the siblings of a call that raised (none outlives the run)."""
    tasks = [asyncio.ensure_future(invoke(call)) for call in calls]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


async def run_groups(groups: tuple[Group, ...]) -> list[Any]:
    values: list[Any] = []
    for group in groups:
        values.extend(await gathered(group.calls) if group.gathered else [await invoke(group.calls[0])])
    return values


@maf.workflow(name="replay_fuzz")
async def fuzz_workflow(_: str) -> list[Any]:
    context = get_run_context()
    TRACE[0].contexts.append(weakref.ref(context))
    TRACE[0].shimmed.append(run_state_of(context) is not None)
    MEMO.clear()
    try:
        values: list[Any] = []
        for group in PLAN["top"]:
            values.extend(await run_groups((group,)))
            await settled_memo()
        return values
    finally:  # a run that failed still waits for its shared load, as an application's would
        await asyncio.gather(*MEMO.values(), return_exceptions=True)
        MEMO.clear()


def plan(groups: tuple[Group, ...], crash_at: int = 0, memo: bool = False, install: Any = None) -> None:
    """Set the program for the next run; *install*: ``(body entry, install function)`` to call from the loop."""
    PLAN["top"], PLAN["memo"], PLAN["install"] = groups, memo, install
    PLAN["top_labels"] = {call.label for group in groups for call in group.calls}
    PLAN["calls"] = {call.label: call for call in walk(groups)}
    TRACE[0] = Trace(crash_at=crash_at)
