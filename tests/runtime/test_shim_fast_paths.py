"""The shim's fast paths behave as its general ones (a review of the 2026-12-07 speed-ups found each case).

* A call whose argument's field raises when read is undigestable, as the general record makes it: the step
  call goes on (MAF's result), on every release.
* On 1.18, which copies a run's cache for a response-only replay after every return of the workflow body,
  the shim's record in that copy is brought up to date even when the run left no request pending: a later
  ``run(responses=...)`` may take the copy while an earlier run's requests are still pending.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
from typing import Any

import agent_framework as maf
import pytest
from shim_support import run

from steplint import runtime_shim
from steplint.runtime_shim.framework import detect_framework
from steplint.runtime_shim.run_state import cache_digest, copies_cache_at_every_end, marker_key
from steplint.runtime_shim.versions import installed_framework_version

pytestmark = pytest.mark.runtime


class Lazy:
    """A field read through a descriptor that raises until its object is loaded."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = "_" + name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return None
        if not instance.__dict__.get("loaded"):
            raise RuntimeError("not loaded yet")
        return instance.__dict__[self.name]

    def __set__(self, instance: Any, value: Any) -> None:
        instance.__dict__[self.name] = value


@dataclasses.dataclass
class LazyDoc:
    body: str = Lazy()  # type: ignore[assignment]


@maf.step
async def handle(doc: LazyDoc, number: int) -> int:
    return number


@maf.workflow(name="raising-field")
async def raising_field(count: int) -> list[int]:
    if count < 0:  # never: the module names request_info, so its storage-less runs are verified
        await maf.get_run_context().request_info("never asked", response_type=str)
    return [await handle(LazyDoc("a"), number) for number in range(1, count + 1)]


@pytest.mark.parametrize("mode", ["flat", "scoped"])
def test_an_argument_whose_field_raises_when_read_is_undigestable_not_a_failed_call(mode: str) -> None:
    before = runtime_shim.replay_report()
    with runtime_shim.installed(mode, on_replay_mismatch="warn"):
        result = run(raising_field.build().run(3))
    assert result.get_outputs() == [[1, 2, 3]]
    assert runtime_shim.replay_report() == before  # nothing was taken from a cache, so nothing was checked


@maf.step
async def leaf(number: int) -> int:
    return number * 10


@maf.step
async def branch(number: int) -> int:
    return await leaf(number) + await leaf(number + 1)


@maf.workflow(name="copied-at-every-end")
async def copied_at_every_end(number: int) -> int:
    total = await branch(number) + await leaf(99)
    if number == 0:
        await maf.get_run_context().request_info("question", response_type=str)
    return total


async def _abandon_after_output(workflow: Any, message: Any) -> None:
    stream = workflow.run(message, stream=True)
    async for event in stream:
        if getattr(event, "type", None) == "output":
            break  # the caller has its output: MAF never reaches the end of the stream, where it drops the copy
    del stream
    gc.collect()
    for _ in range(5):
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("policy", ["off", "warn"])
def test_the_copy_1_18_keeps_after_every_body_carries_an_up_to_date_record(policy: str) -> None:
    framework = detect_framework(installed_framework_version())
    if not copies_cache_at_every_end(framework.functional_workflow):
        pytest.skip("from 1.19 a run's cache is copied for a replay only with the requests it left pending")
    with runtime_shim.installed("scoped", on_replay_mismatch=policy):
        workflow = copied_at_every_end.build()
        run(workflow.run(0))  # pauses: its request stays pending on the workflow
        run(_abandon_after_output(workflow, 1))  # nests, returns, and leaves its cache copied
        copied = workflow._last_step_cache_auto_request_info_counts
        assert copied[marker_key(framework)] == cache_digest(workflow._last_step_cache)
