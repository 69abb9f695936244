"""STP014's ground truth on the installed agent-framework-core: two different steps with one step name.

``EXAMPLE`` is the rule's doc example (tests/test_doc_example_truths.py checks
they are the same text and that the linter reports it): before 1.20 its two
steps share one call-order counter (``fetch::0``, ``fetch::1``); from 1.20
their keys differ. Called as module attributes around a pause, the two make a
resume in a new instance raise from 1.20 ("created by a different step
definition"); called by their global names they do not. Needs only
agent-framework-core and pytest.
"""

from __future__ import annotations

import asyncio
import sys
import types
from pathlib import Path
from typing import Any

import agent_framework as maf
import pytest
from shim_support import HAS_FINGERPRINTS, MAF_VERSION_TUPLE, cache_keys, latest

pytestmark = pytest.mark.filterwarnings("ignore")

WRAPPER_CHECK_RELEASE = (1, 20, 0)  # as rules/stp014_duplicate_step_name.py says

EXAMPLE = '''
from agent_framework import step, workflow


@step(name="fetch")
async def fetch_order(key: str) -> str:
    return f"order:{key}"


@step(name="fetch")
async def fetch_user(key: str) -> str:
    return f"user:{key}"


@workflow
async def lookup(key: str) -> list[str]:
    return [await fetch_order(key), await fetch_user(key)]
'''

STEP = '''
from agent_framework import step


@step
async def fetch(key: str) -> str:
    return "{kind}:" + key
'''

PAUSED = '''
from agent_framework import RunContext, workflow
from stp014_orders import fetch as fetch_order
import stp014_orders as orders
import stp014_users as users


@workflow(name="{name}")
async def paused(key: str, ctx: RunContext) -> list:
    first = await {first}(key)
    await ctx.request_info({{"confirm": first}}, response_type=str, request_id="ask")
    return [first, await users.fetch(key)]
'''


def _run(namespace: dict[str, Any], source: str) -> dict[str, Any]:
    exec(compile(source, f"{namespace['__name__']}.py", "exec"), namespace)
    return namespace


def _built(definition: Any, storage: Any) -> Any:
    return definition.build(checkpoint_storage=storage) if hasattr(definition, "build") else definition


def test_the_doc_example_shares_call_order_keys_before_1_20():
    example = _run({"__name__": "stp014_example"}, EXAMPLE)
    storage = maf.InMemoryCheckpointStorage()

    async def keys() -> list[str]:
        result = await _built(example["lookup"], storage).run("k", checkpoint_storage=storage)
        assert result.get_outputs() == [["order:k", "user:k"]]
        return cache_keys(await latest(storage, "lookup"))

    found = asyncio.run(keys())
    if HAS_FINGERPRINTS:
        assert len(found) == 2 and all(key.startswith('v2::["auto","fetch"') for key in found)
    else:
        assert found == ["fetch::0", "fetch::1"]


@pytest.mark.parametrize("first", ["orders.fetch", "fetch_order"])
def test_module_attributes_make_the_resume_raise_from_1_20(monkeypatch, first):
    for kind in ("orders", "users"):
        module = types.ModuleType(f"stp014_{kind}")
        exec(compile(STEP.format(kind=kind), f"stp014_{kind}.py", "exec"), module.__dict__)
        monkeypatch.setitem(sys.modules, module.__name__, module)
    name = "attributes" if first == "orders.fetch" else "name-first"
    paused = _run({"__name__": "stp014_paused"}, PAUSED.format(name=name, first=first))["paused"]
    storage = maf.InMemoryCheckpointStorage()

    async def resume() -> Any:
        await _built(paused, storage).run("k", checkpoint_storage=storage)
        checkpoint = await latest(storage, name)
        return await _built(paused, storage).run(
            checkpoint_id=checkpoint.checkpoint_id, responses={"ask": "yes"}, checkpoint_storage=storage
        )

    if first == "orders.fetch" and MAF_VERSION_TUPLE >= WRAPPER_CHECK_RELEASE:
        with pytest.raises(ValueError, match="created by a different step definition"):
            asyncio.run(resume())
    else:
        assert asyncio.run(resume()).get_outputs() == [["orders:k", "users:k"]]


FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "stp014_call_order.py"
# The fixture's workflows the rule reports on 1.19 (its target), with the step name they share.
SHARED = {"by_decorators": "fetch", "wrapper_and_decorator": "load", "assigned_and_decorated": "save",
          "through_a_helper": "fetch"}


@pytest.mark.parametrize("workflow", sorted(SHARED))
def test_the_fixtures_shapes_share_one_call_order_counter_before_1_20(workflow):
    """Each reported shape: before 1.20 the two definitions take ``name::0`` and ``name::1`` of one counter (a
    resume that skips one hands the other's result over); from 1.20 their keys differ (the rule is silent there
    for these fingerprintable arguments)."""
    fixture = _run({"__name__": "stp014_call_order"}, FIXTURE.read_text())
    storage = maf.InMemoryCheckpointStorage()
    name = SHARED[workflow]

    async def keys() -> list[str]:
        await _built(fixture[workflow], storage).run("k", checkpoint_storage=storage)
        return [key for key in cache_keys(await latest(storage, workflow)) if name in key]

    found = asyncio.run(keys())
    if HAS_FINGERPRINTS:
        assert len(found) == 2 and all(key.startswith(f'v2::["auto","{name}"') for key in found)
        assert found[0] != found[1]
    else:
        assert found == [f"{name}::0", f"{name}::1"]
