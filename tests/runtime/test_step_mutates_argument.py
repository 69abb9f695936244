"""STP051's ground truth on the installed agent-framework-core: a step's change to its argument is lost on resume.

``EXAMPLE`` is the rule's doc example, read from its docstring (tests/test_doc_example_truths.py checks
the linter reports it). Its first run pauses
for approval after ``enrich`` changed ``doc``; the resume (a new instance,
from the checkpoint) skips the cached ``enrich``, so ``invoice`` sees the
document without the customer. Needs only agent-framework-core and pytest.
"""

from __future__ import annotations

import asyncio
from typing import Any

import agent_framework as maf
import pytest
import fixture_truths
from shim_support import MAF_VERSION_TUPLE, latest

pytestmark = pytest.mark.filterwarnings("ignore")

EXAMPLE = fixture_truths.rule_example("STP051")  # the rule docstring's ## Example, read, not copied


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


@pytest.mark.parametrize("name", fixture_truths.STP051_WORKFLOWS)
def test_the_fixtures_reported_changes_are_lost_on_resume_and_its_near_misses_are_not(name):
    """A workflow of fixtures/stp051_step_mutates_argument.py run to the end here, then resumed in a new process from
    the checkpoint after each step call: resuming after a reported call (its step replayed, its change lost) ends
    differently from resuming one call earlier; after a near miss, the same."""
    outcomes = fixture_truths.outcomes()["seen"][f"stp051-{name}"]
    module = fixture_truths.load(fixture_truths.STP051, "stp051_fixture")
    steps = {key for key, value in vars(module).items() if isinstance(value, maf.StepWrapper)}
    calls = fixture_truths.step_call_lines(fixture_truths.STP051, name, steps)
    reported = fixture_truths.expected_lines(fixture_truths.STP051, "STP051")
    by_cached = {}
    for cached, outcome in outcomes:
        by_cached.setdefault(cached, outcome)  # the first checkpoint holding that many results
    assert set(range(len(calls) + 1)) <= set(by_cached), outcomes
    changed = {line for index, line in enumerate(calls, 1) if by_cached[index] != by_cached[index - 1]}
    assert changed == reported & set(calls), (changed, outcomes)


CACHED_RESULT = fixture_truths.FIXTURES / "stp051_cached_result.py"


@pytest.mark.parametrize("name", ["cached-result", "built-here"])
def test_a_change_to_an_earlier_steps_result_replays_before_1_20_only(name):
    """fixtures/stp051_cached_result.py, paused after ``detect`` changed ``analysis`` and resumed from the checkpoint
    in a new instance: an earlier step's result is cached by reference before 1.20 (the change replays), as a copy
    from 1.20 (lost); an object the body built is lost on every release (the rule reports exactly those)."""
    module = fixture_truths.load(CACHED_RESULT, "stp051_cached_result")
    definition = next(v for v in vars(module).values() if getattr(v, "name", None) == name)
    storage = maf.InMemoryCheckpointStorage()

    async def resume() -> Any:
        await _built(definition, storage).run("go", checkpoint_storage=storage)
        checkpoint = await latest(storage, name)
        return await _built(definition, storage).run(
            checkpoint_id=checkpoint.checkpoint_id, responses={"pick": "one"}, checkpoint_storage=storage)

    kept = asyncio.run(resume()).get_outputs() == [[["weak"], "one"]]
    copies = MAF_VERSION_TUPLE >= (1, 20, 0)
    assert kept == (name == "cached-result" and not copies), (name, copies)
