"""What a summary costs to build, pickle and load: no cycles, shared forms, values that hash and pickle."""

from __future__ import annotations

import gc
import pickle

from steplint.run import process_pool as workers  # noqa: F401  (registers the constructor pickling the pool uses)
from steplint.summaries.file_summary import summarize_source
from steplint.core.summary import Binding, CallSite, Const, Display, Param, Ref, Span, iter_calls

SOURCE = """
from agent_framework import step

@step
async def tick(x: str, n: int = 1, m: int = 1, flag: bool = True) -> str:
    return x

@step
async def tock(x: str, y: str = None) -> str:
    return await tick(x, {})

@step(name="é")
async def tack(x: str) -> str:
    return await tock(tick(x), "é")
"""


def test_summarizing_leaves_no_reference_cycles():
    # The tree and the builder are freed at once, not at the next collection (which a big run pays for).
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        summary = summarize_source(SOURCE.encode(), "cycles.py")
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
    assert summary.error is None


def test_equal_names_and_literals_are_one_object_per_module():
    summary = summarize_source(SOURCE.encode(), "shared.py")
    params = [p for f in summary.functions for p in f.params]
    assert len({id(p.annotation) for p in params if p.annotation == Ref("str")}) == 1
    ones = [p.default for p in params if p.name in ("n", "m")]
    assert ones == [Const(1), Const(1)] and ones[0] is ones[1]
    assert len({id(d) for f in summary.functions for d in f.decorators if d == Ref("step")}) == 1
    [flag] = [p.default for p in params if p.name == "flag"]
    assert flag.value is True  # True == 1, but it is not the shared Const(1)


def test_values_hash_by_value_and_survive_pickling():
    values = [
        Span(1, 2, 3, 4),
        Ref("a.b"),
        Const(None),
        Display("list", (Ref("x"),)),
        Binding("assign", 1, 2, value=Ref("y")),
        Param("x", "normal", Span(1, 0, 1, 1), Ref("int"), None, None),
        CallSite(Ref("tick"), Span(3, 4, 3, 9), True, (Ref("gather"),), arg_names=("x",)),
    ]
    copies = pickle.loads(pickle.dumps(values, pickle.HIGHEST_PROTOCOL))
    assert copies == values
    assert {*values, *copies} == set(values)
    summary = summarize_source(SOURCE.encode(), "round.py")
    assert pickle.loads(pickle.dumps(summary, pickle.HIGHEST_PROTOCOL)) == summary


def test_iter_calls_finds_every_call_and_gives_the_same_calls_again():
    module = summarize_source(SOURCE.encode(), "calls.py")
    tack = next(f for f in module.functions if f.qualname == "tack")
    first = list(iter_calls(tack.body))
    # ``await tock(tick(x), "é")``: the outer call and the one in its arguments.
    assert sorted(c.func.dotted for c in first) == ["tick", "tock"]
    assert list(iter_calls(tack.body)) == first
    assert all(a is b for a, b in zip(iter_calls(tack.body), first)), "the summary's own call objects, not copies"
    copy = tuple(list(tack.body))  # an equal tuple that is another object is walked on its own
    assert [c.span for c in iter_calls(copy)] == [c.span for c in first]
