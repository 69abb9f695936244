"""STP031's ground truth on the installed agent-framework-core: I/O in a workflow body repeats on resume.

``EXAMPLE`` is the rule's doc example (tests/test_doc_example_truths.py
checks they are the same text and that the linter reports it), run with a
stand-in ``requests`` that counts its calls. Restoring the finished run's
checkpoint runs the body again from the top: the ``requests.post`` outside
the step is made a second time.
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
from agent_framework import step, workflow


@step
async def summarize(text: str) -> str:
    return text[:100]


@workflow
async def pipeline(text: str) -> str:
    summary = await summarize(text)
    requests.post("https://example.com/audit", json={"summary": summary})
    return summary
'''


def _example(monkeypatch: pytest.MonkeyPatch, posts: list) -> dict[str, Any]:
    requests = types.ModuleType("requests")
    requests.post = lambda url, **kwargs: posts.append((url, kwargs))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "requests", requests)
    namespace: dict[str, Any] = {"__name__": "stp031_example"}
    exec(compile(EXAMPLE, "stp031_example.py", "exec"), namespace)
    return namespace


async def _run_then_resume(pipeline: Any) -> tuple[Any, Any]:
    storage = maf.InMemoryCheckpointStorage()
    built = pipeline.build() if hasattr(pipeline, "build") else pipeline
    first = await built.run("hello", checkpoint_storage=storage)
    checkpoint = await latest(storage, "pipeline")
    resumed_on = pipeline.build() if hasattr(pipeline, "build") else pipeline
    again = await resumed_on.run(checkpoint_id=checkpoint.checkpoint_id, checkpoint_storage=storage)
    return first, again


def test_io_outside_a_step_is_done_again_on_resume(monkeypatch):
    posts: list = []
    example = _example(monkeypatch, posts)
    first, again = asyncio.run(_run_then_resume(example["pipeline"]))
    assert first.get_outputs() == again.get_outputs() == ["hello"]
    assert len(posts) == 2  # the workflow body's request was made again, with the replayed summary
    assert posts[0] == posts[1]
