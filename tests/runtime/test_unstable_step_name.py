"""STP015's ground truth on the installed agent-framework-core: a step name that changes between processes.

Every case runs the way a real crash and resume do: one process runs the
workflow with a ``FileCheckpointStorage`` and dies (``os._exit``) in the last
step, after the others' results were checkpointed; a new process imports the
same code, takes ``get_latest`` and resumes from it. What each step really ran
is appended to a ledger file, so a step that runs again shows.

``EXAMPLE`` is the rule's doc example (tests/test_doc_example_truths.py checks
they are the same text and that the linter reports it). A name made from a
uuid, a clock or random: referenced by its global name, MAF puts the name into
the workflow's signature and refuses the resume ("created by a different
version of workflow"); reached as a module attribute (which the signature does
not see) the resume goes on and the step runs again: the charge is made twice.
A name made from the position in a set's iteration order (``enumerate`` of a
set of strings, whose order follows the process's hash seed) hands one call's
result to another on 1.18/1.19 (call-order keys ``part_0::0``), and runs the
steps again from 1.20 (the key carries the arguments' fingerprint). A name made
from the element itself is stable and resumes right on every release, as does
one read from an environment variable the resumed process also has.
Runs on every release of the matrix and on the verdict-only old releases.
Needs only agent-framework-core and pytest.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

pytestmark = pytest.mark.filterwarnings("ignore")

MAF_VERSION_TUPLE = tuple(int(part) for part in metadata.version("agent-framework-core").split(".")[:3])
FINGERPRINT_RELEASE = (1, 20, 0)  # as steplint.core.framework_versions says: keys carry the arguments from 1.20

EXAMPLE = '''
import uuid

from agent_framework import step, workflow


async def _charge(order_id: str) -> str:
    return f"charged {order_id}"


charge = step(name=f"charge-{uuid.uuid4().hex[:8]}")(_charge)


@step
async def ship(receipt: str) -> str:
    return f"shipped after {receipt}"


@workflow(name="checkout")
async def checkout(order_id: str) -> str:
    receipt = await charge(order_id)
    return await ship(receipt)
'''

# What the cases share: a ledger of what really ran, and a crash in the last step of the first process.
PRELUDE = '''
import os, sys
from agent_framework import step, workflow

LEDGER = os.environ["STP015_LEDGER"]


def note(what):
    with open(LEDGER, "a") as ledger:
        ledger.write(what + "\\n")


PARTS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}


async def work(part: str) -> str:
    note("work " + part)
    return "did " + part


async def finish_body(value):
    if os.environ.get("STP015_CRASH"):
        os._exit(17)
    return value
'''

# The doc example's charge, with the ledger: reached by its global name or as a module attribute.
UUID_STEPS = '''
import uuid
from agent_framework import step
from stp015_prelude import note


async def _charge(order_id: str) -> str:
    note("charge " + order_id)
    return f"charged {order_id}"


charge = step(name=f"charge-{uuid.uuid4().hex[:8]}")(_charge)
'''

CASES = {
    "by_name": '''
from stp015_prelude import finish_body, step, workflow
from stp015_steps import charge

finish = step(finish_body)


@workflow(name="checkout")
async def flow(order_id: str) -> list:
    receipt = await charge(order_id)
    return [receipt, await finish("done")]
''',
    "attribute": '''
import stp015_steps as steps
from stp015_prelude import finish_body, step, workflow

finish = step(finish_body)


@workflow(name="checkout")
async def flow(order_id: str) -> list:
    receipt = await steps.charge(order_id)
    return [receipt, await finish("done")]
''',
    "set_position": '''
from stp015_prelude import PARTS, finish_body, step, work, workflow

finish = step(finish_body)
PART_STEPS = {part: step(name=f"part_{index}")(work) for index, part in enumerate(PARTS)}


@workflow(name="parts")
async def flow(_: str) -> list:
    done = [await PART_STEPS[part](part) for part in sorted(PARTS)]
    return done + [await finish("done")]
''',
    "set_element": '''
from stp015_prelude import PARTS, finish_body, step, work, workflow

finish = step(finish_body)
PART_STEPS = {part: step(name=f"part_{part}")(work) for part in PARTS}


@workflow(name="parts")
async def flow(_: str) -> list:
    done = [await PART_STEPS[part](part) for part in sorted(PARTS)]
    return done + [await finish("done")]
''',
    "environment": '''
import os
from stp015_prelude import finish_body, note, step, workflow

finish = step(finish_body)


async def _charge(order_id: str) -> str:
    note("charge " + order_id)
    return f"charged {order_id}"


charge = step(name=os.environ["STP015_PREFIX"] + "-charge")(_charge)


@workflow(name="checkout")
async def flow(order_id: str) -> list:
    receipt = await charge(order_id)
    return [receipt, await finish("done")]
''',
}

DRIVER = '''
import asyncio, json, os, sys
from agent_framework import FileCheckpointStorage
import stp015_case


def built(definition, storage):
    if hasattr(definition, "build"):  # 1.14+: the definition builds the runnable workflow
        return definition.build(checkpoint_storage=storage)
    return type(definition)(definition._func, name=definition.name, checkpoint_storage=storage)


async def main(resume):
    storage = FileCheckpointStorage(os.environ["STP015_STORAGE"])
    flow = built(stp015_case.flow, storage)
    if not resume:
        result = await flow.run("o1")
    else:
        checkpoint = await storage.get_latest(workflow_name=flow.name)
        try:
            result = await flow.run(checkpoint_id=checkpoint.checkpoint_id)
        except ValueError as error:
            print(json.dumps({"refused": str(error)}))
            return
    print(json.dumps({"outputs": result.get_outputs()}))


asyncio.run(main(sys.argv[1] == "resume"))
'''


def _process(folder: Path, phase: str, seed: int, crash: bool, prefix: str = "eu") -> dict:
    environment = dict(os.environ, PYTHONHASHSEED=str(seed), STP015_LEDGER=str(folder / "ledger"),
                       STP015_STORAGE=str(folder / "checkpoints"), STP015_PREFIX=prefix)
    environment.pop("STP015_CRASH", None)
    if crash:
        environment["STP015_CRASH"] = "1"
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(folder), *([environment["PYTHONPATH"]] if environment.get("PYTHONPATH") else [])])
    completed = subprocess.run([sys.executable, str(folder / "driver.py"), phase], capture_output=True, text=True,
                               cwd=folder, env=environment, timeout=120, check=False)
    if crash:
        assert completed.returncode == 17, completed.stderr[-3000:]
        return {}
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


def _set_order(folder: Path, seed: int) -> list[str]:
    program = 'print(list({"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}))'
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                          env=dict(os.environ, PYTHONHASHSEED=str(seed))).stdout


def _seeds(folder: Path) -> tuple[int, int]:
    """Two hash seeds under which the set iterates in different orders."""
    first = _set_order(folder, 1)
    return 1, next(seed for seed in range(2, 50) if _set_order(folder, seed) != first)


def crash_then_resume(tmp_path: Path, case: str, seeds: tuple[int, int] = (1, 1),
                      prefixes: tuple[str, str] = ("eu", "eu")) -> tuple[dict, list[str]]:
    """The case's first process dies in the last step; a new one resumes from ``get_latest``. Returns what the
    resume printed and the ledger of both processes."""
    for name, text in (("stp015_prelude", PRELUDE), ("stp015_steps", UUID_STEPS), ("stp015_case", CASES[case]),
                       ("driver", DRIVER)):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))
    (tmp_path / "checkpoints").mkdir()
    _process(tmp_path, "run", seeds[0], crash=True, prefix=prefixes[0])
    resumed = _process(tmp_path, "resume", seeds[1], crash=False, prefix=prefixes[1])
    return resumed, (tmp_path / "ledger").read_text().splitlines()


def test_the_doc_example_refuses_the_resume_in_a_new_process(tmp_path):
    (tmp_path / "stp015_example.py").write_text(EXAMPLE)
    (tmp_path / "checkpoints").mkdir()
    driver = DRIVER.replace("stp015_case.flow", "stp015_example.checkout").replace(
        "import stp015_case", "import stp015_example")
    driver = driver.replace('flow.run("o1")', 'flow.run("o1")\n        os._exit(17)')
    (tmp_path / "driver.py").write_text(driver)
    _process(tmp_path, "run", 1, crash=True)
    resumed = _process(tmp_path, "resume", 1, crash=False)
    assert "different version of workflow" in resumed.get("refused", ""), resumed


def test_a_uuid_name_reached_by_its_global_name_refuses_the_resume(tmp_path):
    resumed, ledger = crash_then_resume(tmp_path, "by_name")
    assert "different version of workflow" in resumed.get("refused", ""), resumed
    assert ledger == ["charge o1"]


def test_a_uuid_name_reached_as_a_module_attribute_charges_again(tmp_path):
    resumed, ledger = crash_then_resume(tmp_path, "attribute")
    assert resumed == {"outputs": [["charged o1", "done"]]}
    assert ledger == ["charge o1", "charge o1"]  # the resume missed the cached result and charged again


def test_a_name_from_a_set_position_swaps_results_or_reruns(tmp_path):
    seeds = _seeds(tmp_path)
    resumed, ledger = crash_then_resume(tmp_path, "set_position", seeds)
    right = sorted(f"did {part}" for part in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")) + ["done"]
    if MAF_VERSION_TUPLE >= FINGERPRINT_RELEASE:
        assert resumed == {"outputs": [right]}
        assert len(ledger) > 6  # the parts whose position moved ran again
    else:
        assert resumed != {"outputs": [right]}  # part_0::0 held another part's result
        assert len(ledger) == 6


def test_a_name_from_a_set_element_resumes_right(tmp_path):
    seeds = _seeds(tmp_path)
    resumed, ledger = crash_then_resume(tmp_path, "set_element", seeds)
    right = sorted(f"did {part}" for part in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")) + ["done"]
    assert resumed == {"outputs": [right]}
    assert len(ledger) == 6


def test_a_name_from_an_environment_variable_resumes_right_where_it_is_set_alike(tmp_path):
    resumed, ledger = crash_then_resume(tmp_path, "environment")
    assert resumed == {"outputs": [["charged o1", "done"]]}
    assert ledger == ["charge o1"]


def test_a_name_from_an_environment_variable_that_differs_refuses_the_resume(tmp_path):
    resumed, ledger = crash_then_resume(tmp_path, "environment", prefixes=("eu", "us"))
    assert "different version of workflow" in resumed.get("refused", ""), resumed
