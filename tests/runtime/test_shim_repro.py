"""The reproduction of microsoft/agent-framework#9383, with and without the shim."""

from __future__ import annotations

import agent_framework as maf
import pytest
from shim_support import ARG_KINDS, HAS_FINGERPRINTS, MAF_VERSION, make_arg, label_of, latest, run

from steplint import runtime_shim

pytestmark = pytest.mark.runtime

calls: list[str] = []
crash_at = ""


@maf.step
async def tick(job: object) -> str:
    calls.append(label_of(job))
    if label_of(job) == crash_at:
        raise RuntimeError("killed")
    return label_of(job).upper()


@maf.step
async def wrapper(job: object) -> str:
    return await tick(job)  # a step called from a step


@maf.workflow(name="repro")
async def repro(kind: str) -> list[str]:
    return [await wrapper(make_arg(kind, "a")), await wrapper(make_arg(kind, "b"))]


async def crash_then_resume(kind: str) -> tuple[list[object], list[str]]:
    """First run crashes in tick(b); the resume from the latest checkpoint must finish it."""
    global crash_at
    storage = maf.InMemoryCheckpointStorage()
    calls.clear()
    crash_at = "b"
    with pytest.raises(RuntimeError, match="killed"):
        await repro.build(checkpoint_storage=storage).run(kind)
    calls.clear()
    crash_at = ""
    checkpoint = await latest(storage, "repro")
    result = await repro.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id)
    return result.get_outputs(), list(calls)


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_maf_alone_resumes_to_the_wrong_result_where_keys_are_call_order(kind: str) -> None:
    outputs, resumed_calls = run(crash_then_resume(kind))
    if kind == "str" and HAS_FINGERPRINTS:
        assert (outputs, resumed_calls) == ([["A", "B"]], ["b"]), MAF_VERSION
    else:
        # The bug as reported: tick(b) silently gets tick(a)'s cached result.
        assert (outputs, resumed_calls) == ([["A", "A"]], []), MAF_VERSION


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_scoped_mode_resumes_the_reproduction_correctly(kind: str) -> None:
    runtime_shim.install(mode="scoped")
    outputs, resumed_calls = run(crash_then_resume(kind))
    assert outputs == [["A", "B"]]
    assert resumed_calls == ["b"]


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_flat_mode_fails_the_reproduction_at_the_first_nested_call(kind: str) -> None:
    runtime_shim.install(mode="flat")
    calls.clear()
    with pytest.raises(runtime_shim.NestedStepError) as raised:
        run(repro.build(checkpoint_storage=maf.InMemoryCheckpointStorage()).run(kind))
    assert calls == []
    message = str(raised.value)
    assert "'tick'" in message and "'wrapper'" in message
    assert "tick.__wrapped__(...)" in message and "mode='scoped'" in message
    assert (raised.value.outer_step, raised.value.inner_step) == ("wrapper", "tick")


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_flat_mode_runs_the_reproduction_once_inner_calls_use_wrapped(kind: str) -> None:
    runtime_shim.install(mode="flat")

    @maf.workflow(name="repro-inline")
    async def inline(kind: str) -> list[str]:
        return [await inline_wrapper(make_arg(kind, label)) for label in ("a", "b")]

    result = run(inline.build().run(kind))
    assert result.get_outputs() == [["A", "B"]]


@maf.step
async def inline_wrapper(job: object) -> str:
    return await tick.__wrapped__(job)  # the documented way to run inner step code inline
