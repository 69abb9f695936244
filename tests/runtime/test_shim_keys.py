"""What scoped keys look like in checkpoints, and what stays exactly as MAF makes it."""

from __future__ import annotations

import asyncio
import gc
import weakref

import agent_framework as maf
import pytest
from shim_support import ARG_KINDS, HAS_FINGERPRINTS, SCOPED, chain, label_of, latest, make_arg, run, step_of
from shim_trees import Node, crash_first_run, crash_points, expected_output, run_uninterrupted, storage_of, tree

from steplint import runtime_shim
from steplint.runtime_shim.frames import current_step_frame

pytestmark = pytest.mark.runtime

N = Node
# alpha is only ever called at top level, beta and gamma only nested.
TOP_LEVEL_ONLY_ALPHA = (
    N("alpha", "a", (N("beta", "a", (N("gamma", "a"),)), N("beta", "b"))),
    N("alpha", "b"),
    N("alpha", "a", (N("beta", "a"),)),
)


async def final_cache(roots: tuple[Node, ...], kind: str) -> dict[str, object]:
    storage = maf.InMemoryCheckpointStorage()
    outcome = await run_uninterrupted(roots, kind, storage)
    assert outcome.error is None
    return (await latest(storage, "tree")).state["_step_cache"]


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_top_level_keys_are_byte_identical_and_nested_keys_are_scoped(kind: str) -> None:
    baseline = run(final_cache(TOP_LEVEL_ONLY_ALPHA, kind))
    runtime_shim.install(mode="scoped")
    shimmed = run(final_cache(TOP_LEVEL_ONLY_ALPHA, kind))

    def top_level(cache: dict[str, object]) -> dict[str, object]:
        return {key: value for key, value in cache.items() if step_of(key) == "alpha"}

    assert top_level(shimmed) == top_level(baseline)
    assert len(top_level(shimmed)) == 3
    nested = [key for key in shimmed if step_of(key) != "alpha"]
    assert len(nested) == 4
    assert all(SCOPED.search(key) for key in nested), nested
    assert not any(SCOPED.search(key) for key in top_level(shimmed))


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_scoped_key_format(kind: str) -> None:
    runtime_shim.install(mode="scoped")
    keys = set(run(final_cache(TOP_LEVEL_ONLY_ALPHA, kind)))
    if kind == "model" or not HAS_FINGERPRINTS:
        # call-order keys: the step name is scoped, the counter is per parent call
        gamma_keys = [key for key in keys if key.startswith("gamma@")]
        assert len(gamma_keys) == 1 and gamma_keys[0].endswith("::0")
        beta_keys = sorted(key for key in keys if key.startswith("beta@"))
        assert [key.rsplit("::", 1)[1] for key in beta_keys].count("0") == 2  # one per alpha call
    else:
        # fingerprint keys: the argument identity is scoped, the occurrence is per parent call
        nested = [key for key in keys if step_of(key) != "alpha"]
        assert all(key.startswith('v2::["auto",') and SCOPED.search(key.split(",")[3]) for key in nested)


@pytest.mark.parametrize("storage_kind", ["memory", "file"])
@pytest.mark.parametrize("kind", ARG_KINDS)
def test_checkpoints_made_without_the_shim_resume_under_it(kind: str, storage_kind: str) -> None:
    """Top-level keys are unchanged, so old checkpoints resume; old nested results are recomputed."""
    for crash in crash_points(TOP_LEVEL_ONLY_ALPHA):
        with storage_of(storage_kind) as storage:
            runtime_shim.uninstall()
            run(crash_first_run(TOP_LEVEL_ONLY_ALPHA, kind, crash, storage))
            runtime_shim.install(mode="scoped")
            resumed = run(resume_latest(storage))
        assert resumed == expected_output(TOP_LEVEL_ONLY_ALPHA), crash


async def resume_latest(storage: object) -> list[object]:
    checkpoint = await latest(storage, "tree")
    workflow = tree.build(checkpoint_storage=storage)
    result = await (workflow.run(checkpoint_id=checkpoint.checkpoint_id) if checkpoint else workflow.run("go"))
    return result.get_outputs()


flat_calls: list[str] = []
flat_crash: set[str] = set()


@maf.step
async def flat_step(job: object) -> str:
    flat_calls.append(label_of(job))
    if label_of(job) in flat_crash:
        flat_crash.discard(label_of(job))
        raise RuntimeError("crash")
    return label_of(job) * 2


@maf.workflow(name="flat-old")
async def flat_old(kind: str) -> list[str]:
    return [await flat_step(make_arg(kind, label)) for label in "abcd"]


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_flat_workflow_checkpoint_without_shim_resumes_exactly_under_it(kind: str) -> None:
    storage = maf.InMemoryCheckpointStorage()
    flat_calls.clear()
    flat_crash.add("c")
    with pytest.raises(RuntimeError):
        run(flat_old.build(checkpoint_storage=storage).run(kind))
    runtime_shim.install(mode="scoped")
    checkpoint = run(latest(storage, "flat-old"))
    result = run(flat_old.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id))
    assert result.get_outputs() == [["aa", "bb", "cc", "dd"]]
    assert flat_calls == ["a", "b", "c", "c", "d"]


def test_run_contexts_and_frames_do_not_outlive_the_run() -> None:
    runtime_shim.install(mode="scoped")
    contexts: list[weakref.ref[object]] = []

    @maf.workflow(name="leak-check")
    async def leak_check(_: str) -> str:
        contexts.append(weakref.ref(maf.get_run_context()))
        return "done"

    async def scenario() -> None:
        await leak_check.build().run("go")
        await run_uninterrupted(TOP_LEVEL_ONLY_ALPHA, "str")
        assert current_step_frame.get() is None

    run(scenario())
    gc.collect()
    assert contexts and contexts[0]() is None


def test_two_workflows_running_concurrently_in_one_loop_do_not_share_counters() -> None:
    runtime_shim.install(mode="scoped")

    async def crash_resume_concurrently() -> list[list[object]]:
        results = await asyncio.gather(*(interleaved(prefix) for prefix in ("x", "y")))
        return list(results)

    assert run(crash_resume_concurrently()) == [[["xA", "xB"]], [["yA", "yB"]]]


interleave_crash: set[str] = set()


@maf.step
async def interleave_inner(label: str) -> str:
    await asyncio.sleep(0)  # let the other workflow's steps run in between
    if label in interleave_crash:
        interleave_crash.discard(label)
        raise RuntimeError("crash")
    return label[0] + label[1:].upper()


@maf.step
async def interleave_outer(job: object) -> str:
    return await interleave_inner(label_of(job))


@maf.workflow(name="interleaved")
async def interleaved_workflow(prefix: str) -> list[str]:
    return [await interleave_outer(make_arg("model", prefix + label)) for label in "ab"]


async def interleaved(prefix: str) -> list[object]:
    storage = maf.InMemoryCheckpointStorage()
    interleave_crash.add(prefix + "b")
    with pytest.raises(RuntimeError):
        await interleaved_workflow.build(checkpoint_storage=storage).run(prefix)
    checkpoint = (await chain(storage, "interleaved"))[-1]
    result = await interleaved_workflow.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id)
    return result.get_outputs()
