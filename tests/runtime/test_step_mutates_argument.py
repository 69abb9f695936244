"""STP051's ground truth on the installed agent-framework-core: a step's change to its argument is lost on resume.

``EXAMPLE`` is the rule's doc example (tests/test_doc_example_truths.py checks
they are the same text and that the linter reports it). Its first run pauses
for approval after ``enrich`` changed ``doc``; the resume (a new instance,
from the checkpoint) skips the cached ``enrich``, so ``invoice`` sees the
document without the customer. Needs only agent-framework-core and pytest.
"""

from __future__ import annotations

import asyncio
from typing import Any

import agent_framework as maf
import pytest
from shim_support import latest

pytestmark = pytest.mark.filterwarnings("ignore")

EXAMPLE = '''
from agent_framework import RunContext, step, workflow


@step
async def enrich(doc: dict) -> None:
    doc["customer"] = "ACME"


@step
async def invoice(doc: dict) -> str:
    return f"invoice for {doc.get('customer', 'UNKNOWN')}"


@workflow(name="billing")
async def billing(_: str, ctx: RunContext) -> str:
    doc = {"id": "d1"}
    await enrich(doc)
    await ctx.request_info({"approve": doc["id"]}, response_type=str, request_id="approve")
    return await invoice(doc)
'''


def _built(definition: Any, storage: Any) -> Any:
    return definition.build(checkpoint_storage=storage) if hasattr(definition, "build") else definition


def test_the_change_is_lost_on_resume():
    namespace: dict[str, Any] = {"__name__": "stp051_example"}
    exec(compile(EXAMPLE, "stp051_example.py", "exec"), namespace)
    billing = namespace["billing"]
    storage = maf.InMemoryCheckpointStorage()

    async def resume() -> Any:
        await _built(billing, storage).run("go", checkpoint_storage=storage)
        checkpoint = await latest(storage, "billing")
        return await _built(billing, storage).run(
            checkpoint_id=checkpoint.checkpoint_id, responses={"approve": "yes"}, checkpoint_storage=storage
        )

    # Uninterrupted, enrich's change would make it "invoice for ACME".
    assert asyncio.run(resume()).get_outputs() == ["invoice for UNKNOWN"]
