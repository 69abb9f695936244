"""STP033's ground truth on the installed agent-framework-core: a step is entered again to deliver an answer.

``EXAMPLE`` is the rule's doc example (tests/test_doc_example_truths.py checks
they are the same text and that the linter reports it), run with a stand-in
``requests`` that counts its calls: answering the step's question, in a new
instance from the checkpoint, makes the request before the question again.
Needs only agent-framework-core and pytest.
"""

from __future__ import annotations

import asyncio
import sys
import types
from typing import Any

import agent_framework as maf
import pytest
from shim_support import latest

pytestmark = pytest.mark.filterwarnings("ignore")

EXAMPLE = '''
import requests
from agent_framework import RunContext, step, workflow


@step
async def review(draft: str, ctx: RunContext) -> str:
    requests.post("https://example.com/notify", json={"draft": draft})
    return await ctx.request_info({"draft": draft}, response_type=str, request_id="review")


@workflow(name="publish")
async def publish(draft: str) -> str:
    return await review(draft)
'''


def _built(definition: Any, storage: Any) -> Any:
    return definition.build(checkpoint_storage=storage) if hasattr(definition, "build") else definition


def test_the_work_before_the_question_is_done_again(monkeypatch):
    posts: list = []
    requests = types.ModuleType("requests")
    requests.post = lambda url, **kwargs: posts.append(url)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "requests", requests)
    namespace: dict[str, Any] = {"__name__": "stp033_example"}
    exec(compile(EXAMPLE, "stp033_example.py", "exec"), namespace)
    storage = maf.InMemoryCheckpointStorage()

    async def answer() -> Any:
        await _built(namespace["publish"], storage).run("d1", checkpoint_storage=storage)
        checkpoint = await latest(storage, "publish")
        return await _built(namespace["publish"], storage).run(
            checkpoint_id=checkpoint.checkpoint_id, responses={"review": "ship it"}, checkpoint_storage=storage
        )

    assert asyncio.run(answer()).get_outputs() == ["ship it"]
    assert len(posts) == 2
