"""STP052's ground truth on the installed agent-framework-core: which step results a file checkpoint gives back
changed, against what the linter reports for this release, both ways.

Every step of fixtures/stp052_checkpoint_changes_result.py runs in a workflow of its own, checkpointed to a
FileCheckpointStorage; the run is resumed from the checkpoint that holds the step's result, and the two results are
compared as the workflow would use them (same classes, every live key found, values alike). A step whose checkpoint
MAF refuses (a class outside its allowlist: STP050's case) has no resumed result and must not be reported. Then the
fixture is linted for this release: the steps STP052 reports must be exactly the changed ones.
"""

from __future__ import annotations

import ast
import asyncio
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import agent_framework as maf
import pytest
from agent_framework import step, workflow
from shim_support import MAF_VERSION_TUPLE, chain

pytestmark = pytest.mark.filterwarnings("ignore")

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "stp052_checkpoint_changes_result.py"


def _fixture_module() -> Any:
    spec = importlib.util.spec_from_file_location("stp052_fixture", FIXTURE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # pickling a class of the fixture finds it here
    spec.loader.exec_module(module)
    return module


def same(live: Any, resumed: Any) -> bool:
    """Whether code that used the live result works the same on the resumed one."""
    if type(live) is not type(resumed):
        return False
    if isinstance(live, dict):
        return all(key in resumed and same(value, resumed[key]) for key, value in live.items())
    if isinstance(live, (list, tuple)):
        return len(live) == len(resumed) and all(same(a, b) for a, b in zip(live, resumed))
    return live == resumed


SEEN: list[Any] = []  # the step's result in each run (a closure would enter the workflow's signature hash)


@step
async def after(n: int) -> int:
    return n + 1


def _changed(made: Any, name: str, directory: Path) -> bool | None:
    """Whether a resume gives *made*'s result back changed (None: MAF refused the checkpoint)."""
    SEEN.clear()

    async def body(n: int) -> int:
        SEEN.append(await made(n))
        return await after(n)

    storage = maf.FileCheckpointStorage(str(directory))
    definition = workflow(name=name)(body)
    try:
        asyncio.run(definition.build(checkpoint_storage=storage).run(1))
    except maf.WorkflowCheckpointException:
        return None
    first = asyncio.run(chain(storage, name))[0]  # saved after the step: its result is in the cache
    asyncio.run(definition.build(checkpoint_storage=storage).run(checkpoint_id=first.checkpoint_id))
    live, resumed = SEEN
    return not same(live, resumed)


def _reported() -> set[int]:
    release = ".".join(map(str, MAF_VERSION_TUPLE))
    done = subprocess.run(
        [sys.executable, "-m", "steplint", "check", "--isolated", "--select", "STP052", "--output-format", "json",
         "--target-version", release, str(FIXTURE)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return {finding["location"]["row"] for finding in json.loads(done.stdout)}


def test_the_steps_reported_are_the_ones_a_resume_gives_back_changed(tmp_path: Path) -> None:
    module = _fixture_module()
    steps = {name: value for name, value in vars(module).items() if isinstance(value, maf.StepWrapper)}
    assert len(steps) >= 15
    changed, refused = set(), set()
    for name, made in steps.items():
        outcome = _changed(made, f"stp052-{name}", tmp_path / name)
        if outcome is None:
            refused.add(name)
        elif outcome:
            changed.add(name)
    lines = {node.lineno: node.name for node in ast.parse(FIXTURE.read_text()).body  # the `def` line, as reported
             if isinstance(node, ast.AsyncFunctionDef)}
    reported = {lines[row] for row in _reported() if row in lines}
    assert reported == changed, (sorted(reported - changed), sorted(changed - reported))
    # Dict keys come back as strings on every release; a subclass only before 1.20, where nothing is refused.
    assert {"by_int", "by_pair", "nested", "by_flag", "maybe_none"} <= changed
    if MAF_VERSION_TUPLE >= (1, 20, 0):
        assert refused == {"bagged", "rows"} and not changed & {"counted", "defaulted"}
    else:
        assert not refused and {"counted", "defaulted", "bagged", "rows"} <= changed
