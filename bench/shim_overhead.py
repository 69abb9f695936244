"""Overhead of steplint's runtime shim on a workflow of many sequential trivial steps.

    python bench/shim_overhead.py [--steps 2000] [--repeats 7] [--mode scoped|flat|both]
        [--arg int|model] [--storage none|memory] [--shape top|nested] [--check 1.05]
        [--replay default|compare] [--phase run|resume] [--can-pause]

``--replay compare`` times each shim mode with replay verification off and
on (its default policy), so the difference is the cost of the records and
their checks; ``--phase resume`` times a run restored from the last
checkpoint of a finished one, where every step call is a cache hit (the
check's cost; the record's is in ``--phase run``).

``--shape nested``: the workflow calls a step that calls a trivial step, so
half the step calls are nested (scoped mode only: flat mode refuses them);
``--steps`` still counts every step call.

A run without storage that no later run can take the cache of (its workflow's module names no way to
pause) runs on MAF's own code under the shim; ``--can-pause`` times the same workflow defined in a
module that names ``request_info`` (``shim_overhead_pausable``), whose storage-less runs the shim must
treat as resumable.

Runs the same workflow with MAF alone and with the shim installed, alternating
within one process, and prints the best time of each and their ratio (goal:
<= 1.05). The best of several runs is the least disturbed by other load on
the machine; times are CPU time of this process, for the same reason.
--check makes the exit status 1 when a ratio exceeds the bound.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import time
from importlib import metadata
from pathlib import Path

import agent_framework as maf
from pydantic import BaseModel

from steplint import runtime_shim

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shim_overhead_pausable import pausable_workflow  # noqa: E402


class Item(BaseModel):
    index: int


@maf.step
async def trivial(item: object) -> object:
    return item


@maf.step
async def calls_trivial(item: object) -> object:
    return await trivial(item)


ARGUMENTS = {"int": lambda index: index, "model": lambda index: Item(index=index)}
settings: dict[str, object] = {"steps": 2000, "arg": "int", "shape": "top", "workflow": "cannot pause"}


@maf.workflow(name="shim-overhead")
async def many_steps(_: str) -> int:
    make = ARGUMENTS[str(settings["arg"])]
    if settings["shape"] == "nested":
        for index in range(int(settings["steps"]) // 2):  # type: ignore[call-overload]
            await calls_trivial(make(index))
    else:
        for index in range(int(settings["steps"])):  # type: ignore[call-overload]
            await trivial(make(index))
    return int(settings["steps"])  # type: ignore[call-overload]


WORKFLOWS = {"cannot pause": many_steps, "can pause": pausable_workflow(trivial, calls_trivial, settings, ARGUMENTS)}


def time_one_run(storage_kind: str, phase: str) -> float:
    storage = maf.InMemoryCheckpointStorage() if storage_kind == "memory" or phase == "resume" else None
    chosen = WORKFLOWS[str(settings["workflow"])]
    workflow = chosen.build(checkpoint_storage=storage)
    if phase == "resume":
        asyncio.run(workflow.run("go"))
        checkpoints = asyncio.run(storage.list_checkpoints(workflow_name="shim-overhead"))
        last = max(checkpoints, key=lambda checkpoint: (checkpoint.iteration_count, checkpoint.timestamp))
        workflow = chosen.build(checkpoint_storage=storage)
        gc.collect()
        started = time.process_time()
        asyncio.run(workflow.run(checkpoint_id=last.checkpoint_id))
        return time.process_time() - started
    gc.collect()
    started = time.process_time()
    asyncio.run(workflow.run("go"))
    return time.process_time() - started


Variant = tuple[str, str | None, str | None]  # label, shim mode (None: MAF alone), on_replay_mismatch


def best_times(variants: list[Variant], repeats: int, storage_kind: str, phase: str) -> dict[str, float]:
    best = {label: float("inf") for label, _, _ in variants}
    time_one_run(storage_kind, phase)  # warm-up: imports, caches, the experimental warning
    for _ in range(repeats):
        for label, mode, policy in variants:  # alternate so drifting machine load hits every variant alike
            runtime_shim.uninstall()
            if mode is not None:
                runtime_shim.install(mode=mode, on_replay_mismatch=policy)  # type: ignore[arg-type]
            best[label] = min(best[label], time_one_run(storage_kind, phase))
    runtime_shim.uninstall()
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--mode", choices=["scoped", "flat", "both"], default="both")
    parser.add_argument("--arg", choices=sorted(ARGUMENTS), default="int")
    parser.add_argument("--storage", choices=["none", "memory"], default="none")
    parser.add_argument("--shape", choices=["top", "nested"], default="top")
    parser.add_argument("--replay", choices=["default", "compare"], default="default")
    parser.add_argument("--phase", choices=["run", "resume"], default="run")
    parser.add_argument("--can-pause", action="store_true", help="time a workflow whose module names request_info")
    parser.add_argument("--check", type=float, default=None, help="fail if a ratio exceeds this")
    options = parser.parse_args(argv)
    settings.update(steps=options.steps, arg=options.arg, shape=options.shape,
                    workflow="can pause" if options.can_pause else "cannot pause")

    shim_modes: list[str | None] = ["scoped", "flat"] if options.mode == "both" else [options.mode]
    if options.shape == "nested":
        shim_modes = [mode for mode in shim_modes if mode != "flat"] or ["scoped"]  # flat refuses nesting
    variants: list[Variant] = [("MAF alone", None, None)]
    for mode in shim_modes:
        if options.replay == "compare":
            variants.append((f"{mode}, replay off", mode, "off"))
        variants.append((f"{mode}" if options.replay == "default" else f"{mode}, replay on", mode, None))
    best = best_times(variants, options.repeats, options.storage, options.phase)
    print(
        f"agent-framework-core {metadata.version('agent-framework-core')}, {options.steps} sequential steps "
        f"({'half of them nested' if options.shape == 'nested' else 'all top-level'}), "
        f"{options.arg} arguments, storage={options.storage}, phase={options.phase}, best of {options.repeats}, "
        f"workflow {settings['workflow']}"
    )
    alone = best["MAF alone"]
    print(f"  {'MAF alone':<22} {alone * 1000:9.1f} ms  ({alone / options.steps * 1e6:.1f} us/step)")
    failed = False
    for label, _, _ in variants[1:]:
        ratio = best[label] / alone
        failed |= options.check is not None and ratio > options.check
        extra = (best[label] - alone) / options.steps * 1e6
        line = f"  shim {label:<17} {best[label] * 1000:9.1f} ms  ratio {ratio:.3f}x  ({extra:+.1f} us/step"
        if label.endswith("replay on"):
            off = best[label.replace("replay on", "replay off")]
            line += f"; verification {(best[label] - off) / options.steps * 1e6:+.1f} us/step"
        print(line + ")")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
