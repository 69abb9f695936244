"""Five ways the shim resumed wrong before, each on the real release and real checkpoint storages:

1. flat mode and a task a step body spawned that outlives the step (both storages must agree: refused);
2. scoped mode crashed while a nested call is still running: no body whose result is in the checkpoint runs again;
3. a step name that looks like a scope token cannot make a checkpoint made without the shim look scoped;
4. a run paused without the shim and answered with responses only (no checkpoint) gets the old-checkpoint protection;
5. installed() counts its users, and never uninstalls under a running workflow.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import agent_framework as maf
import pytest
from shim_support import Job, latest, run, storages

from steplint import runtime_shim
from steplint.runtime_shim import NestedStepError

pytestmark = pytest.mark.runtime

STORAGES = ("memory", "file")


def _storage(tmp_path: Any, name: str) -> Any:
    return storages(tmp_path)[name]


# --- 1. flat mode: a task spawned by a step body is that step's, whenever it runs --------------------

BACKGROUND: list[asyncio.Task] = []


@maf.step
async def spawned_tick(label: str) -> str:
    return label.upper()


@maf.step
async def spawner(label: str) -> str:
    BACKGROUND.append(asyncio.create_task(spawned_tick("bg")))
    return "spawned"


@maf.workflow(name="spawning")
async def spawning(message: str) -> list[str]:
    first = await spawner(message)
    background = await BACKGROUND.pop()
    return [first, background, await spawned_tick("f")]


@pytest.mark.parametrize("storage_name", STORAGES)
def test_flat_mode_refuses_a_step_called_from_a_task_a_step_spawned_with_either_storage(tmp_path, storage_name):
    runtime_shim.install(mode="flat")
    BACKGROUND.clear()
    workflow = spawning.build(checkpoint_storage=_storage(tmp_path, storage_name))
    with pytest.raises(NestedStepError) as raised:
        run(workflow.run("x"))
    assert (raised.value.outer_step, raised.value.inner_step) == ("spawner", "spawned_tick")


# --- 2. scoped mode: a crash while a nested call still runs -------------------------------------------

BODIES: list[str] = []
CRASH = {"armed": True}


@maf.step
async def slow_tick(label: str) -> str:
    BODIES.append(label)
    await asyncio.sleep(0.2 if asyncio.current_task().get_name().startswith("nested") else 0)
    return label.upper()


@maf.step
async def parent(label: str) -> str:
    asyncio.current_task().set_name("nested-parent")
    return "P" + await slow_tick(label)


@maf.step
async def boom(label: str) -> str:
    await asyncio.sleep(0.05)  # after the top-level slow_tick completed and was checkpointed
    if CRASH["armed"]:
        raise RuntimeError("crash while the nested slow_tick still runs")
    return "B"


@maf.workflow(name="crash-while-nested")
async def crash_while_nested(message: str) -> list[str]:
    return list(await asyncio.gather(parent(message), slow_tick(message), boom(message)))


@pytest.mark.parametrize("storage_name", STORAGES)
def test_scoped_resume_never_runs_again_a_body_whose_result_is_in_the_checkpoint(tmp_path, storage_name):
    runtime_shim.install(mode="scoped")
    storage = _storage(tmp_path, storage_name)
    CRASH["armed"], BODIES[:] = True, []
    with pytest.raises(Exception, match="crash while the nested"):
        run(crash_while_nested.build(checkpoint_storage=storage).run("x"))
    checkpoint = run(latest(storage, "crash-while-nested"))
    assert BODIES == ["x", "x"]  # the nested call started, the top-level one completed
    CRASH["armed"], BODIES[:] = False, []
    resumed = run(crash_while_nested.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id))
    assert resumed.get_outputs() == [["PX", "X", "B"]]
    assert BODIES == ["x"]  # only the nested call, which never completed, runs again


# --- 3. a step name that looks like a scope token -------------------------------------------------------

ORDER: list[str] = []


@maf.step(name="deploy@3f2a9c1b4d5e6f70")
async def deploy(job: Job) -> str:
    ORDER.append("deploy")
    return "D"


@maf.step
async def inner(job: Job) -> str:
    ORDER.append(f"inner:{job.label}")
    return f"{job.label}.1"


CRASH_IN_OUTER = {"armed": True}


@maf.step
async def outer(job: Job) -> str:
    nested = await inner(job)
    if CRASH_IN_OUTER["armed"]:  # after the nested call was checkpointed: MAF alone keys it inner::0
        raise RuntimeError("crash inside outer")
    return nested + "/o"


@maf.workflow(name="token-name")
async def token_name(message: str) -> list[str]:
    first = await deploy(Job(label="d"))
    second = await outer(Job(label="A"))
    return [first, second, await inner(Job(label="W3"))]


def test_a_step_name_like_a_scope_token_does_not_make_an_old_checkpoint_look_scoped(tmp_path):
    storage = maf.InMemoryCheckpointStorage()
    runtime_shim.uninstall()
    CRASH_IN_OUTER["armed"] = True
    with pytest.raises(RuntimeError, match="crash inside outer"):
        run(token_name.build(checkpoint_storage=storage).run("go"))  # MAF alone makes the checkpoint
    checkpoint = run(latest(storage, "token-name"))
    assert any("@3f2a9c1b4d5e6f70" in key for key in checkpoint.state["_step_cache"])
    CRASH_IN_OUTER["armed"] = False
    alone = run(token_name.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id)).get_outputs()
    assert alone == [["D", "A.1/o", "W3.1"]]  # MAF alone resumes this one right
    runtime_shim.install(mode="scoped")
    shimmed = run(token_name.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id)).get_outputs()
    assert shimmed == alone


# --- 4. responses only, after a pause without the shim ---------------------------------------------------

@maf.step
async def ask(job: Job, ctx: maf.RunContext) -> str:
    answer = await ctx.request_info({"question": job.label}, response_type=str)
    return f"{job.label}/{answer}"


@maf.step
async def asking_outer(job: Job) -> str:
    nested = await inner(job)  # "A.1", nested: on 1.19 and older MAF alone keys it inner::1
    return await ask(Job(label=nested))


@maf.workflow(name="responses-only")
async def responses_only(message: str) -> list[str]:
    first = await inner(Job(label="W0"))
    second = await asking_outer(Job(label="A"))
    return [first, second, await inner(Job(label="W1"))]


def _request_id(result: Any) -> str:
    [request] = result.get_request_info_events()
    return request.request_id


def test_a_pause_without_the_shim_answered_with_responses_only_is_protected():
    runtime_shim.uninstall()
    workflow = responses_only.build()
    paused = run(workflow.run("go"))
    runtime_shim.install(mode="scoped")
    answered = run(workflow.run(responses={_request_id(paused): "yes"}))
    outputs = answered.get_outputs()
    assert outputs == [["W0.1", "A.1/yes", "W1.1"]], outputs


def test_a_pause_under_the_shim_answered_with_responses_only_reruns_nothing():
    runtime_shim.install(mode="scoped")
    ORDER.clear()
    workflow = responses_only.build()
    paused = run(workflow.run("go"))
    before = list(ORDER)
    answered = run(workflow.run(responses={_request_id(paused): "yes"}))
    assert answered.get_outputs() == [["W0.1", "A.1/yes", "W1.1"]]
    assert before == ["inner:W0", "inner:A"] and ORDER[len(before):] == ["inner:W1"]


# --- 5. installed() counts its users --------------------------------------------------------------------


@maf.step
async def counted(job: Job) -> str:
    await asyncio.sleep(0.01)
    return job.label


@maf.step
async def counting_outer(job: Job) -> str:
    return "o:" + await counted(job)


@maf.workflow(name="counting")
async def counting(message: str) -> list[str]:
    results = [await counting_outer(Job(label=message))]
    await asyncio.sleep(0.1)  # the other task leaves its installed() block meanwhile
    results.append(await counted(Job(label=message)))
    return results


def test_installed_blocks_count_their_users_and_never_uninstall_under_a_running_workflow(tmp_path):
    storage = maf.InMemoryCheckpointStorage()

    async def long_user() -> Any:
        with runtime_shim.installed(mode="scoped"):
            return await counting.build(checkpoint_storage=storage).run("L")

    async def short_user() -> None:
        with runtime_shim.installed(mode="scoped"):
            await asyncio.sleep(0.02)
        assert runtime_shim.installed_mode() == "scoped"  # the other block still holds it

    async def both() -> Any:
        _, result = await asyncio.gather(short_user(), long_user())  # the first in is the first out
        return result

    runtime_shim.uninstall()
    result = run(both())
    assert runtime_shim.installed_mode() is None  # the last user left
    assert result.get_outputs() == [["o:L", "L"]]
    checkpoint = run(latest(storage, "counting"))
    keys = list(checkpoint.state["_step_cache"])
    plain = [key for key in keys if "@" not in key]
    assert len(plain) == 2 and len(keys) == 3  # counting_outer, counted at top level; the nested one scoped


def test_an_install_inside_an_installed_block_outlives_it():
    runtime_shim.uninstall()
    with runtime_shim.installed(mode="scoped"):
        runtime_shim.install(mode="scoped")
    assert runtime_shim.installed_mode() == "scoped"
    runtime_shim.uninstall()
    assert runtime_shim.installed_mode() is None


def test_uninstall_waits_for_a_workflow_that_started_under_the_shim():
    storage = maf.InMemoryCheckpointStorage()

    async def scenario() -> Any:
        runtime_shim.install(mode="scoped")
        running = asyncio.create_task(counting.build(checkpoint_storage=storage).run("U"))
        await asyncio.sleep(0.03)  # inside the workflow's sleep
        runtime_shim.uninstall()
        assert runtime_shim.installed_mode() == "scoped"  # deferred: a workflow still runs under it
        result = await running
        assert runtime_shim.installed_mode() is None
        return result

    assert run(scenario()).get_outputs() == [["o:U", "U"]]
    keys = list(run(latest(storage, "counting")).state["_step_cache"])
    assert len(keys) == 3 and len([key for key in keys if "@" not in key]) == 2


# --- 6. documented limits: nesting depth, and NestedStepError inside a TaskGroup ------------------------


@maf.step
async def down(n: int) -> int:
    return 0 if n == 0 else 1 + await down(n - 1)


@maf.workflow(name="deep")
async def deep(n: int) -> int:
    return await down(n)


def _deepest_self_nesting() -> int:
    """The deepest recursion of one step into itself that completes (binary search on the real release)."""

    def completes(depth: int) -> bool:
        try:
            run(deep.build().run(depth))
        except RecursionError:
            return False
        return True

    low, high = 1, 2000
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if completes(middle) else (low, middle - 1)
    return low


def test_the_nesting_depth_limit_is_the_one_the_readme_states():
    runtime_shim.uninstall()
    alone = _deepest_self_nesting()
    runtime_shim.install(mode="scoped")
    scoped = _deepest_self_nesting()
    # README, "Limits": one more coroutine frame per step call, so about two thirds of MAF alone's depth
    # (487 and 324 in a plain script; the test runner's own frames take a few).
    assert alone >= 400 and 0.62 <= scoped / alone <= 0.70, (alone, scoped)


@maf.step
async def grouped_inner(label: str) -> str:
    return label


@maf.step
async def grouping_outer(label: str) -> str:
    async with asyncio.TaskGroup() as group:  # Python 3.11+
        group.create_task(grouped_inner(label))
    return label


@maf.workflow(name="grouped")
async def grouped(label: str) -> str:
    return await grouping_outer(label)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="asyncio.TaskGroup and ExceptionGroup are Python 3.11+")
def test_in_a_task_group_the_nested_step_error_arrives_in_an_exception_group():
    runtime_shim.install(mode="flat")
    with pytest.raises(ExceptionGroup) as raised:  # noqa: F821 - a builtin on 3.11+; README: catch it with except*
        run(grouped.build().run("g"))
    matched = raised.value.subgroup(NestedStepError)
    assert matched is not None
    assert [(error.outer_step, error.inner_step) for error in matched.exceptions] == [("grouping_outer", "grouped_inner")]
