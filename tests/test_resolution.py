"""Name and type resolution details the rules lean on (summaries and index, no fixtures)."""

from __future__ import annotations

import textwrap

import pytest

from steplint.config.settings import Settings
from steplint.analysis.flow import ModuleFlow
from steplint.analysis.values import ExternalValue
from steplint.run.checking import analyze
from steplint.summaries.file_summary import summarize_source
from steplint.analysis.fingerprint import ImmutabilityJudge
from steplint.analysis.program import Analysis
from steplint.core.summary import CallSite, FunctionSummary, ModuleSummary, Ref


def summarize(code: str, path: str = "example.py") -> ModuleSummary:
    return summarize_source(textwrap.dedent(code).lstrip("\n").encode(), path)


def function(summary: ModuleSummary, name: str) -> FunctionSummary:
    return next(f for f in summary.functions if f.name == name)


def call(owner: FunctionSummary, dotted: str) -> CallSite:
    return next(c for c in owner.calls if c.callee == Ref(dotted))


def test_calls_record_where_their_value_is_stored():
    summary = summarize(
        """
        async def body(xs):
            tasks = []
            for x in xs:
                tasks.append(make(x))
            listed = [build(x) for x in xs]
            alone = single(xs)
            value = await awaited(xs)
            nested = outer(inner(xs))
            either = left(xs) if xs else right(xs)
            gathered = gather(*tasks, listed, key=alone)
        """
    )
    body = function(summary, "body")
    assert call(body, "make").sink == "tasks"
    assert call(body, "build").sink == "listed"
    assert call(body, "single").sink == "alone"
    assert call(body, "awaited").sink is None
    assert call(body, "inner").sink is None and call(body, "outer").sink == "nested"
    assert call(body, "left").sink == "either" and call(body, "right").sink == "either"
    assert call(body, "gather").arg_names == ("tasks", "listed", "alone")


def test_calls_inside_lambdas_are_marked():
    body = function(summarize("def body(xs):\n    run(lambda: stamp())\n"), "body")
    assert call(body, "stamp").in_lambda and not call(body, "run").in_lambda


def test_with_binding_resolves_to_the_value_its_call_makes():
    summary = summarize(
        """
        import asyncio as aio
        from asyncio import TaskGroup as TG

        async def body(group: aio.TaskGroup):
            async with aio.TaskGroup() as tg:
                tg.create_task(job())
            later = TG()
            later.create_task(job())
            group.create_task(job())
            with open("f") as handle:
                handle.read()
        """
    )
    analysis = Analysis([summary])
    body = function(summary, "body")
    flow = ModuleFlow(analysis.engine, analysis.index, summary, [(summary, body)])
    names = [v.name for c in body.calls for v in flow.callees(summary, c.span) if isinstance(v, ExternalValue)]
    assert names.count("asyncio.TaskGroup().create_task") == 3
    assert "builtins.open().read" in names


def test_a_name_rebound_from_itself_does_not_loop():
    summary = summarize(
        """
        from agent_framework import step
        import settings_lib

        settings = settings_lib.load()
        settings = settings.with_overrides(x=1)

        def body(options):
            options = options.copy()
            options = options.merge(options.extra())
            return settings.value(options.get())

        @step
        async def tick(label: str) -> str:
            return settings.render(label)
        """
    )
    analyze([summary], Settings(select=("ALL",)))  # no RecursionError


def test_attributes_of_values_are_never_maf_names():
    summary = summarize(
        """
        import agent_framework

        builder = agent_framework.Builder()

        @builder.step
        async def tick(label: str) -> str:
            return label
        """
    )
    assert Analysis([summary]).steps_in(summary) == []


TYPES = """
from typing import Annotated, Any, Optional, TypeVar, Union
T = TypeVar("T")
def f(
    a: Any, b: object, c: T, d: Optional[Any], e: Annotated[Any, 1], f: Union[int, Any], g,
    h: list[Any], i: dict[str, Any], j: tuple[Any, ...], k: Optional[list[Any]],
): ...
"""


@pytest.mark.parametrize("name, is_open", [*((n, True) for n in "abcdefg"), *((n, False) for n in "hijk")])
def test_open_annotations_are_the_ones_that_admit_any_value(name, is_open):
    summary = summarize(TYPES)
    analysis = Analysis([summary])
    param = next(p for p in function(summary, "f").params if p.name == name)
    verdict = analysis.judge.judge(summary, None, param.annotation)
    assert verdict.status == "unknown" and verdict.open is is_open


IMMUTABLE = """
from typing import Literal, NewType, Optional, TypedDict
Key = NewType("Key", str)
class Payload(TypedDict):
    x: int
def f(
    a: int, b: Optional[str], c: tuple[int, ...], d: frozenset[str], e: Literal["x"], f: Key, g: bytes | None,
    h: list[int], i: dict[str, int], j: Payload, k: tuple[int, list[int]], m: set[int],
): ...
"""


@pytest.mark.parametrize("name, immutable", [*((n, True) for n in "abcdefg"), *((n, False) for n in "hijkm")])
def test_immutability_judge_rejects_what_maf_does_not_count_as_durable(name, immutable):
    summary = summarize(IMMUTABLE)
    analysis = Analysis([summary])
    param = next(p for p in function(summary, "f").params if p.name == name)
    verdict = ImmutabilityJudge(analysis.index).judge(summary, None, param.annotation)
    assert (verdict.status == "ok") is immutable, verdict


def test_comprehension_and_lambda_names_are_not_read_from_the_enclosing_function():
    summary = summarize(
        """
        def outer(item, key, value, extra):
            def inner(items, table):
                firsts = [item for item in items]
                pairs = {key: value for key, value in table.items()}
                pick = lambda extra: extra + 1
                return firsts, pairs, pick, value
            return inner
        """
    )
    assert function(summary, "inner").loaded_names == {"items", "table", "firsts", "pairs", "pick", "value"}


def test_a_step_made_through_a_factory_has_the_options_the_factory_passed():
    summary = summarize(
        """
        import agent_framework

        def named(func):
            return agent_framework.step(func, name="fixed")

        def configured(**options):
            return agent_framework.step(**options)

        def keyed(func):
            return agent_framework.step(func, replay_key=lambda *args: repr(args))

        def unkeyed(func):
            return agent_framework.step(func, replay_key=None)

        @named
        async def a(label: str) -> str:
            return label

        @configured(name="chosen")
        async def b(label: str) -> str:
            return label

        @keyed
        async def c(label: str) -> str:
            return label

        @unkeyed
        async def d(label: str) -> str:
            return label
        """
    )
    steps = {item.display: item for item in Analysis([summary]).steps_in(summary)}
    assert {name: steps[name].maf_name for name in "abcd"} == {"a": "fixed", "b": "chosen", "c": "c", "d": "d"}
    assert {name: steps[name].has_replay_key for name in "abcd"} == {"a": False, "b": False, "c": True, "d": False}


def test_an_import_skips_the_main_block_as_python_does():
    # ``__name__`` is the module's name while it is imported: ``main()`` and all it calls never run then.
    summary = summarize(
        """
        def main():
            return 1

        if __name__ == "__main__":
            main()
            ran = True
        if __name__ != "__main__":
            imported = True
        chained = 1 < 2 < 3
        broken = 1 < 2 > 3
        """,
        "tool.py",
    )
    from steplint.analysis.values import ConstValue

    unit = Analysis([summary]).engine.module_unit(summary)
    assert [getattr(f, "qualname", None) for f in unit.session.by_function] == [None]  # the module body only
    assert "ran" not in unit.final_env
    assert unit.final_env["imported"] == frozenset({ConstValue("bool", True)})
    assert "main" in unit.final_env and unit.final_env["chained"] == frozenset({ConstValue("bool", True)})
    assert unit.final_env["broken"] == frozenset({ConstValue("bool", False)})
