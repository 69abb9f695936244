"""STP033's ground truth on the installed agent-framework-core: a step is entered again to deliver an answer.

``EXAMPLE`` is the rule's doc example, read from its docstring (tests/test_doc_example_truths.py checks
the linter reports it), run with a stand-in
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
import fixture_truths
from shim_support import latest

pytestmark = pytest.mark.filterwarnings("ignore")

EXAMPLE = fixture_truths.rule_example("STP033")  # the rule docstring's ## Example, read, not copied


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


def test_the_fixtures_io_before_a_question_is_done_again_and_its_near_misses_once():
    """Every step of fixtures/stp033_io_before_request_info.py that asks, started here and resumed with its answers
    in a new process: a line reported repeats its I/O on the resume (between two questions too, since the final
    resume must pass both answers), every other line of a step that does I/O does it once."""
    seen = fixture_truths.outcomes()
    counts = fixture_truths.io_counts(fixture_truths.STP033, seen["io"])
    reported = fixture_truths.expected_lines(fixture_truths.STP033, "STP033")
    assert reported and reported <= set(counts), (reported, counts)
    assert {line for line, count in counts.items() if count > 1} == reported, counts
    assert {count for line, count in counts.items() if line not in reported} == {1}, counts
    assert seen["seen"]["stp033-ask_twice"]["answers"] == ["first", "second"]


def test_answers_are_not_kept_so_a_second_question_asks_the_first_again():
    """Why STP033 counts I/O between two questions: a resume that passes only the second answer (the first was given
    to the resume before) is asked the first question again, so the final resume must pass both, and the step runs
    from the top once more. The fixture's ask_twice, resumed from its checkpoints in this process."""
    module = fixture_truths.load(fixture_truths.STP033, "stp033_fixture")
    flow = fixture_truths._asking_workflow(module.ask_twice, "stp033-second-only")
    storage = maf.InMemoryCheckpointStorage()

    async def pending_after(*answers: dict) -> list:
        result = await _built(flow, storage).run("t", checkpoint_storage=storage)
        for given in answers:
            checkpoint = await latest(storage, "stp033-second-only")
            result = await _built(flow, storage).run(checkpoint_id=checkpoint.checkpoint_id, responses=given,
                                                     checkpoint_storage=storage)
        return [event.request_id for event in result.get_request_info_events()]

    assert asyncio.run(pending_after({"first": "a"}, {"second": "b"})) == ["first"]
