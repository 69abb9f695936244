"""STP031's ground truth on the installed agent-framework-core: I/O in a workflow body repeats on resume.

``EXAMPLE`` is the rule's doc example, read from its docstring (tests/test_doc_example_truths.py
checks the linter reports it), run with a
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
import fixture_truths
from shim_support import latest

pytestmark = pytest.mark.filterwarnings("ignore")

EXAMPLE = fixture_truths.rule_example("STP031")  # the rule docstring's ## Example, read, not copied


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


def test_the_fixtures_io_in_a_workflow_body_is_done_again_and_in_a_step_is_not():
    """fixtures/stp031_io/flow.py's workflows, run to the end here and resumed from their last checkpoint in a new
    process: every reported line (direct, through helpers of another module, a method, a client, a thread) does its
    I/O again; the I/O in a step is replayed, and the rest of the body does none."""
    seen = fixture_truths.outcomes()
    counts = fixture_truths.io_counts(fixture_truths.STP031_FLOW, seen["io"])
    reported = fixture_truths.expected_lines(fixture_truths.STP031_FLOW, "STP031")
    assert {line for line, count in counts.items() if count == 2} == reported, counts
    assert {count for line, count in counts.items() if line not in reported} == {1}, counts
    assert seen["seen"]["stp031-pipeline"] == seen["seen"]["stp031-hosts"] == "['t']"
