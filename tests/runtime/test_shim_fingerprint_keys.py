"""Scoped mode with MAF 1.20+'s fingerprint keys: replay_key= and MAF's own loud errors."""

from __future__ import annotations

import asyncio
import hashlib
import threading

import agent_framework as maf
import pytest
from shim_support import ARG_KINDS, HAS_FINGERPRINTS, SCOPED, Job, chain, label_of, latest, make_arg, run, step_of

from steplint import runtime_shim

if not HAS_FINGERPRINTS:
    pytest.skip("argument fingerprints and replay_key= exist from agent-framework-core 1.20", allow_module_level=True)

pytestmark = pytest.mark.runtime

keyed_children: list[str] = []


@maf.step
async def keyed_child(job: object) -> str:
    keyed_children.append(label_of(job))
    return label_of(job).upper()


@maf.step(replay_key=lambda job: f"keyed-{label_of(job)}")
async def keyed(job: object) -> str:
    return "K" + await keyed_child(job)


@maf.step
async def keyed_host(job: object) -> str:
    return await keyed(job)


@maf.workflow(name="keyed")
async def keyed_workflow(kind: str) -> list[str]:
    return [await keyed_host(make_arg(kind, label)) for label in "ab"]


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_explicit_replay_keys_stay_as_maf_makes_them(kind: str) -> None:
    from agent_framework._workflows import _functional

    runtime_shim.install(mode="scoped")
    storage = maf.InMemoryCheckpointStorage()
    run(keyed_workflow.build(checkpoint_storage=storage).run(kind))
    keys = set(run(latest(storage, "keyed")).state["_step_cache"])
    for label in "ab":
        identity = hashlib.sha256(f"keyed-{label}".encode()).hexdigest()
        expected = _functional._encode_step_cache_key("explicit", "keyed", keyed._wrapper_source_identity, identity)
        assert expected in keys
    # ...and the children of an explicitly keyed step are scoped by that key
    child_keys = [key for key in keys if step_of(key) == "keyed_child"]
    assert len(child_keys) == 2 and all(SCOPED.search(key) for key in child_keys)


@pytest.mark.parametrize("kind", ARG_KINDS)
def test_children_of_an_explicitly_keyed_step_resume_correctly(kind: str) -> None:
    runtime_shim.install(mode="scoped")
    storage = maf.InMemoryCheckpointStorage()
    run(keyed_workflow.build(checkpoint_storage=storage).run(kind))
    first_checkpoint = run(chain(storage, "keyed"))[1]  # after keyed_child(a) and keyed(a)
    keyed_children.clear()
    result = run(keyed_workflow.build(checkpoint_storage=storage).run(checkpoint_id=first_checkpoint.checkpoint_id))
    assert result.get_outputs() == [["KA", "KB"]]
    assert keyed_children == ["b"]


# --- MAF's own loud errors still happen for nested steps under the shim ---


@maf.step(replay_key=lambda job: "always-the-same")
async def same_key(job: object) -> str:
    return label_of(job)


@maf.step
async def calls_same_key_twice(job: object) -> str:
    return await same_key(job) + await same_key(job)


@maf.workflow(name="duplicate-keys")
async def duplicate_keys(kind: str) -> str:
    return await calls_same_key_twice(make_arg(kind, "a"))


@pytest.mark.parametrize("shimmed", [False, True])
def test_duplicate_replay_keys_still_raise(shimmed: bool) -> None:
    if shimmed:
        runtime_shim.install(mode="scoped")
    with pytest.raises(ValueError, match="duplicate replay_key"):
        run(duplicate_keys.build().run("str"))


@maf.step
async def returns_a_lock(label: str) -> object:
    return threading.Lock()  # cannot be deep-copied, so MAF cannot replay it


@maf.step
async def holds_a_lock(label: str) -> str:
    await returns_a_lock(label)
    return label


@maf.workflow(name="non-replayable")
async def non_replayable(label: str) -> str:
    return await holds_a_lock(label)


@pytest.mark.parametrize("shimmed", [False, True])
def test_non_replayable_results_still_refuse_to_checkpoint(shimmed: bool) -> None:
    if shimmed:
        runtime_shim.install(mode="scoped")
    with pytest.raises(ValueError, match="safely copyable result"):
        run(non_replayable.build(checkpoint_storage=maf.InMemoryCheckpointStorage()).run("x"))


concurrent_on_resume: list[bool] = [False]
crash_after_inner: list[bool] = [False]


@maf.step
async def legacy_inner(job: Job) -> str:
    return job.label.upper()


@maf.step
async def legacy_outer(job: Job) -> str:
    if concurrent_on_resume[0]:
        (result,) = await asyncio.gather(legacy_inner(job))
    else:
        result = await legacy_inner(job)
    if crash_after_inner[0]:
        crash_after_inner[0] = False
        raise RuntimeError("crash")
    return result


@maf.workflow(name="legacy-concurrent")
async def legacy_concurrent(label: str) -> str:
    return await legacy_outer(Job(label=label))


@pytest.mark.parametrize("shimmed", [False, True])
def test_concurrent_replay_of_a_call_order_entry_still_raises(shimmed: bool) -> None:
    if shimmed:
        runtime_shim.install(mode="scoped")
    storage = maf.InMemoryCheckpointStorage()
    concurrent_on_resume[0], crash_after_inner[0] = False, True
    with pytest.raises(RuntimeError, match="crash"):
        run(legacy_concurrent.build(checkpoint_storage=storage).run("a"))
    concurrent_on_resume[0] = True
    checkpoint = run(latest(storage, "legacy-concurrent"))
    try:
        with pytest.raises(ValueError, match="Cannot safely replay legacy order-based cache entry"):
            run(legacy_concurrent.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id))
    finally:
        concurrent_on_resume[0] = False
