"""STP030's set-order case on the real framework: a workflow body that iterates a set of strings and runs a step
for each element, crashed after the first step, resumed in a new process whose hash seed orders the set otherwise.

A step keyed by call order (every step before 1.20; from 1.20 one MAF cannot fingerprint, a pydantic model here)
hands the first call of the resumed run the cached result of the first run's first call: a wrong output, silently.
A step keyed by its arguments (a ``str`` from 1.20) finds each call's own entry. Iterating ``sorted(...)`` is right
everywhere. What the rule reports (``fixtures/stp030_hash_order.py``) is what this shows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from shim_support import HAS_FINGERPRINTS

pytestmark = pytest.mark.runtime

REGIONS = ("eu", "us", "ap", "sa")
APP = textwrap.dedent('''
    import asyncio, json, os, sys

    import agent_framework as maf
    from agent_framework import step, workflow
    from pydantic import BaseModel

    REGIONS = {"eu", "us", "ap", "sa"}


    class Job(BaseModel):
        region: str


    @step
    async def process(region: str) -> str:
        return f"done:{region}"


    @step
    async def ship(job: Job) -> str:
        return f"shipped:{job.region}"


    def crash_after_first(out):
        if os.environ.get("CRASH") and len(out) == 1:
            raise RuntimeError("crash")


    @workflow(name="by-str")
    async def by_str(tag: str) -> list:
        out = []
        for region in REGIONS:
            out.append(await process(region))
            crash_after_first(out)
        return out


    @workflow(name="by-model")
    async def by_model(tag: str) -> list:
        out = []
        for region in REGIONS:
            out.append(await ship(Job(region=region)))
            crash_after_first(out)
        return out


    @workflow(name="by-sorted-model")
    async def by_sorted_model(tag: str) -> list:
        out = []
        for region in sorted(REGIONS):
            out.append(await ship(Job(region=region)))
            crash_after_first(out)
        return out


    async def main(name, folder):
        flow = {"by-str": by_str, "by-model": by_model, "by-sorted-model": by_sorted_model}[name]
        storage = maf.FileCheckpointStorage(folder)
        built = flow.build(checkpoint_storage=storage) if hasattr(flow, "build") else type(flow)(
            flow._func, name=flow.name, checkpoint_storage=storage)
        if os.environ.get("CRASH"):
            try:
                await built.run("t")
            except Exception:
                pass
            return None
        listed = storage.list_checkpoints
        found = await (listed(workflow_name=name) if "workflow_name" in listed.__code__.co_varnames else listed())
        latest = max(found, key=lambda c: c.timestamp)
        result = await built.run(checkpoint_id=latest.checkpoint_id)
        return result.get_outputs()[0]


    print(json.dumps([list(REGIONS), asyncio.run(main(sys.argv[1], sys.argv[2]))]))
''')


def _run(app: Path, name: str, folder: Path, seed: int, crash: bool) -> tuple[list[str], list[str] | None]:
    env = {**os.environ, "PYTHONHASHSEED": str(seed), "CRASH": "1" if crash else ""}
    done = subprocess.run([sys.executable, str(app), name, str(folder)], env=env, capture_output=True, text=True,
                          check=True)
    order, output = json.loads(done.stdout.strip().splitlines()[-1])
    return order, output


def _seeds() -> tuple[int, int]:
    """Two hash seeds whose processes iterate the set from another first element."""
    firsts: dict[str, int] = {}
    for seed in range(64):
        done = subprocess.run([sys.executable, "-c", f"print(next(iter({set(REGIONS)!r})))"], capture_output=True,
                              text=True, env={**os.environ, "PYTHONHASHSEED": str(seed)}, check=True)
        firsts.setdefault(done.stdout.strip(), seed)
        if len(firsts) == 2:
            first, second = firsts.values()
            return first, second
    raise AssertionError("every seed iterated the set from the same element")


@pytest.fixture(scope="module")
def resumed(tmp_path_factory):  # noqa: ANN201 - name -> (the resumed run's order, its output)
    folder = tmp_path_factory.mktemp("hash-order")
    app = folder / "app.py"
    app.write_text(APP)
    first, second = _seeds()
    outcomes = {}
    for name in ("by-str", "by-model", "by-sorted-model"):
        checkpoints = folder / name
        _run(app, name, checkpoints, first, crash=True)
        outcomes[name] = _run(app, name, checkpoints, second, crash=False)
    return outcomes


def _right(order: list[str], output: list[str], prefix: str) -> bool:
    return output == [f"{prefix}:{region}" for region in order]


def test_a_call_order_keyed_step_in_a_set_ordered_loop_gets_another_calls_result(resumed):
    order, output = resumed["by-model"]
    assert not _right(order, output, "shipped"), output  # every release: a model is keyed by call order


def test_a_step_keyed_by_its_arguments_resumes_right_in_any_order(resumed):
    order, output = resumed["by-str"]
    assert _right(order, output, "done") == HAS_FINGERPRINTS, output  # 1.18/1.19: keyed by call order


def test_iterating_sorted_resumes_right(resumed):
    order, output = resumed["by-sorted-model"]
    assert output == [f"shipped:{region}" for region in sorted(REGIONS)], output
