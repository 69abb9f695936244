"""STP052's ground truth on the installed agent-framework-core: which step results a file checkpoint gives back
changed, against fixtures/stp052_checkpoint_changes_result.py's expectations.

Every step of the fixture runs in a workflow of its own, checkpointed to a FileCheckpointStorage; the run is
resumed from the checkpoint that holds the step's result, and the two results are compared as the workflow would
use them (same classes, every live key found, values alike). The steps whose result comes back changed must be
exactly the fixture's ``# expect: STP052`` lines, those marked ``(before 1.20)`` only before 1.20, where a step
whose checkpoint MAF refuses (a class outside its allowlist: STP050's case) has no resumed result. The fixture
test checks that the linter reports those lines for 1.18, tests/test_rule_versions.py the others for 1.20 and
1.26. Needs only agent-framework-core and pytest.
"""

from __future__ import annotations

import asyncio
import importlib.util
import re
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


def _expected() -> tuple[set[str], set[str]]:
    """The fixture's steps expected changed on every release, and those only before 1.20."""
    every, before = set(), set()
    for line in FIXTURE.read_text().splitlines():
        found = re.match(r"async def (\w+)\(.*# expect: STP052( \(before 1\.20\))?", line)
        if found:
            (before if found.group(2) else every).add(found.group(1))
    return every, before


def test_the_steps_expected_are_the_ones_a_resume_gives_back_changed(tmp_path: Path) -> None:
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
    every, before = _expected()
    assert every and before
    if MAF_VERSION_TUPLE >= (1, 20, 0):
        assert changed == every, (sorted(changed - every), sorted(every - changed))
        assert refused == {"bagged", "rows"}  # dict/list subclasses of the fixture's own: STP050 from 1.20
    else:
        assert changed == every | before, (sorted(changed - every - before), sorted(every | before - changed))
        assert not refused
