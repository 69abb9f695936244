"""STP032's ground truth on the installed agent-framework-core: a replay key that changes never replays.

``EXAMPLE`` is the rule's doc example (tests/test_doc_example_truths.py checks
they are the same text and that the linter reports it). From 1.20, resuming
its paused run from the checkpoint runs ``charge`` again under a new key (the
cache then holds two); before 1.20 ``replay_key=`` raises TypeError when the
module is imported. Needs only agent-framework-core and pytest.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import agent_framework as maf
import pytest
from shim_support import MAF_VERSION_TUPLE, cache_keys, latest

pytestmark = pytest.mark.filterwarnings("ignore")

REPLAY_KEY_RELEASE = (1, 20, 0)  # as rules/stp032_unstable_replay_key.py says

EXAMPLE = '''
import time

from agent_framework import RunContext, step, workflow


@step(replay_key=lambda order_id: f"{order_id}:{time.time_ns()}")
async def charge(order_id: str) -> str:
    return f"charged {order_id}"


@workflow(name="checkout")
async def checkout(order_id: str, ctx: RunContext) -> str:
    receipt = await charge(order_id)
    await ctx.request_info({"confirm": receipt}, response_type=str, request_id="confirm")
    return receipt
'''


def _example() -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "stp032_example"}
    exec(compile(EXAMPLE, "stp032_example.py", "exec"), namespace)
    return namespace


@pytest.mark.skipif(MAF_VERSION_TUPLE >= REPLAY_KEY_RELEASE, reason="replay_key= exists from 1.20")
def test_replay_key_does_not_exist_before_1_20():
    with pytest.raises(TypeError):
        _example()


@pytest.mark.skipif(MAF_VERSION_TUPLE < REPLAY_KEY_RELEASE, reason="replay_key= arrived in 1.20")
def test_the_step_runs_again_on_resume():
    checkout = _example()["checkout"]
    storage = maf.InMemoryCheckpointStorage()

    async def resume() -> list[str]:
        await checkout.build(checkpoint_storage=storage).run("o1")
        checkpoint = await latest(storage, "checkout")
        result = await checkout.build(checkpoint_storage=storage).run(
            checkpoint_id=checkpoint.checkpoint_id, responses={"confirm": "ok"}
        )
        assert result.get_outputs() == ["charged o1"]
        return [key for key in cache_keys(await latest(storage, "checkout")) if "charge" in key]

    assert len(asyncio.run(resume())) == 2  # the first run's key never matched: charge ran again


FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "stp032_unstable_replay_key.py"
# The fixture's steps: True where the rule reports the key (it must run again on resume), False for its near misses.
FIXTURE_CASES = {"charge": True, "receipt": True, "mail": True, "notify": True, "refund": True,
                 "ship": False, "pack": False, "label": False}


def _fixture_step(name: str) -> Any:
    namespace: dict[str, Any] = {"__name__": "stp032_fixture"}
    exec(compile(FIXTURE.read_text(), str(FIXTURE), "exec"), namespace)
    return namespace["make_notifier"]() if name == "notify" else namespace[name]


@pytest.mark.skipif(MAF_VERSION_TUPLE < REPLAY_KEY_RELEASE, reason="replay_key= arrived in 1.20")
@pytest.mark.parametrize("name", sorted(FIXTURE_CASES))
def test_the_fixtures_reported_keys_run_again_and_its_near_misses_replay(name):
    wrapped = _fixture_step(name)

    @maf.workflow(name=f"stp032-{name}")
    async def paused(order_id: str, ctx: maf.RunContext) -> str:
        result = await wrapped(order_id)
        await ctx.request_info({"confirm": result}, response_type=str, request_id="confirm")
        return result

    storage = maf.InMemoryCheckpointStorage()

    async def resume() -> int:
        await paused.build(checkpoint_storage=storage).run("o1")
        checkpoint = await latest(storage, f"stp032-{name}")
        await paused.build(checkpoint_storage=storage).run(
            checkpoint_id=checkpoint.checkpoint_id, responses={"confirm": "ok"})
        return len(cache_keys(await latest(storage, f"stp032-{name}")))

    assert asyncio.run(resume()) == (2 if FIXTURE_CASES[name] else 1)


@pytest.mark.skipif(MAF_VERSION_TUPLE >= REPLAY_KEY_RELEASE, reason="replay_key= exists from 1.20")
def test_the_fixture_cannot_be_imported_before_1_20():
    with pytest.raises(TypeError):
        _fixture_step("ship")
