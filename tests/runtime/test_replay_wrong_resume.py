"""Issue 27: replay verification never says "verified" of a wrong resume (real MAF, real storages).

Each test is one of the issue's numbered scenarios. Every step takes a pydantic
``Job`` first, which MAF cannot fingerprint, so its calls are keyed by call
order on every release: a resume whose calls come in another order is handed
the other calls' entries, which is what verification exists to catch. The
ground truth is the uninterrupted run.
"""

from __future__ import annotations

import asyncio
import enum
import gc
import warnings
import weakref
from types import SimpleNamespace
from typing import Any

import agent_framework as maf
import pytest
from pydantic import BaseModel, PrivateAttr, create_model
from shim_support import HAS_FINGERPRINTS, SCOPED, Job, cache_keys, latest, run

from steplint import runtime_shim
from steplint.runtime_shim import ReplayMismatchError, pytest_plugin

pytestmark = pytest.mark.runtime

ORDER: list[Any] = []
CRASH_AT: list[Any] = [None]  # the call (its label) that crashes the first run
FLAKY: set[Any] = set()  # labels whose body raises Flaky (once each)
RAN: list[Any] = []


class Crash(Exception):
    """The simulated crash of a first run."""


class Flaky(Exception):
    """A body that fails once; the workflow goes on."""


def enter(label: Any) -> None:
    """What every body does first: crash, fail once, or note that it ran."""
    if label == CRASH_AT[0]:
        raise Crash(str(label))
    if label in FLAKY:
        FLAKY.discard(label)
        raise Flaky(str(label))
    RAN.append(label)


def installed_as(mode: str | None, policy: str | None = "rerun") -> None:
    runtime_shim.uninstall()
    if mode is not None:
        runtime_shim.install(mode=mode, on_replay_mismatch=policy)  # type: ignore[arg-type]
    runtime_shim.reset_replay_report()


async def crash_then_resume(workflow: Any, storage: Any, first: list[Any], crash_at: Any, second: list[Any],
                            flaky: tuple[Any, ...] = ()) -> Any:
    """The first run calls *first* and crashes at *crash_at*; the resume (from its latest checkpoint) calls *second*
    (where the bodies of *flaky* fail once)."""
    ORDER[:], CRASH_AT[0] = first, crash_at
    with pytest.raises(Crash):
        await workflow.build(checkpoint_storage=storage).run("go")
    checkpoint = await latest(storage, workflow.name)
    ORDER[:], CRASH_AT[0] = second, None
    FLAKY.update(flaky)
    RAN.clear()
    return await workflow.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id)


@pytest.fixture(autouse=True)
def _fresh_scenario() -> Any:
    ORDER.clear()
    CRASH_AT[0] = None
    FLAKY.clear()
    RAN.clear()
    yield
    runtime_shim.uninstall()


# --- 1. *args and **kwargs are part of the record ------------------------------------------------------

@maf.step
async def fetch(job: Job, *tags: str, **options: str) -> str:
    label = options.get("mode") or tags[0]
    enter(label)
    return f"{job.label}:{label}"


@maf.workflow(name="variadic")
async def variadic(_: str) -> list[str]:
    doc = Job(label="doc")
    return [await (fetch(doc, mode=mode) if KEYWORD[0] else fetch(doc, mode)) for mode in ORDER]


KEYWORD = [True]


@pytest.mark.parametrize("keyword", [True, False], ids=["kwargs", "args"])
def test_1_variadic_arguments_are_recorded(keyword: bool) -> None:
    KEYWORD[0] = keyword
    installed_as("scoped", "rerun")
    result = run(crash_then_resume(variadic, maf.InMemoryCheckpointStorage(), ["fast", "slow", "x"], "x",
                                   ["slow", "fast", "end"]))
    assert result.get_outputs() == [["doc:slow", "doc:fast", "doc:end"]]
    report = runtime_shim.replay_report()
    assert report.verified == 0 and report.mismatched == 2, report


# --- 2. a pydantic model's private attributes are part of the record -------------------------------------

class Ticket(BaseModel):
    label: str
    _token: str = PrivateAttr(default="")


def ticket(token: str) -> Ticket:
    made = Ticket(label="same")
    made._token = token
    return made


@maf.step
async def redeem(job: Job, item: Ticket) -> str:
    enter(item._token)
    return item._token.upper()


@maf.workflow(name="private_attrs")
async def private_attrs(_: str) -> list[str]:
    return [await redeem(Job(label="j"), ticket(token)) for token in ORDER]


def test_2_private_attributes_are_recorded() -> None:
    installed_as("scoped", "rerun")
    result = run(crash_then_resume(private_attrs, maf.InMemoryCheckpointStorage(), ["a", "b", "x"], "x",
                                   ["b", "a", "c"]))
    assert result.get_outputs() == [["B", "A", "C"]]
    assert runtime_shim.replay_report().verified == 0


# --- 3. values by canonical content, never by repr ------------------------------------------------------

class Secret(str):
    def __repr__(self) -> str:
        return "Secret('***')"


@maf.step
async def sign(job: Job, secret: Secret) -> str:
    enter(str(secret))
    return str(secret).upper()


@maf.workflow(name="masked_repr")
async def masked_repr(_: str) -> list[str]:
    return [await sign(Job(label="j"), Secret(value)) for value in ORDER]


def test_3_a_masked_repr_does_not_hide_the_value() -> None:
    installed_as("flat", "error")
    with pytest.raises(ReplayMismatchError):
        run(crash_then_resume(masked_repr, maf.InMemoryCheckpointStorage(), ["a", "b", "x"], "x", ["b", "a", "c"]))
    assert runtime_shim.replay_report().verified == 0


# --- 4. "rerun" moves the other call's entry aside; the record is written when the body completes ----------

@maf.step
async def work(job: Job) -> str:
    enter(job.label)
    return job.label.upper()


@maf.workflow(name="failing_rerun")
async def failing_rerun(_: str) -> list[str]:
    results = []
    for label in ORDER:
        try:
            results.append(await work(Job(label=label)))
        except Flaky:
            results.append("failed")
    return results


def test_4_a_rerun_body_that_fails_leaves_no_entry_to_take() -> None:
    installed_as("scoped", "rerun")
    storage = maf.InMemoryCheckpointStorage()
    # The re-run of b (its entry held a's result) fails; the workflow goes on, and c's checkpoint follows.
    result = run(crash_then_resume(failing_rerun, storage, ["a", "b", "x"], "x", ["b", "a", "c"], flaky=("b",)))
    assert result.get_outputs() == [["failed", "A", "C"]]
    ORDER[:] = ["b", "a", "c"]
    RAN.clear()
    runtime_shim.reset_replay_report()
    checkpoint = run(latest(storage, "failing_rerun"))
    again = run(failing_rerun.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id))
    assert again.get_outputs() == [["B", "A", "C"]]
    assert RAN == ["b"]


@maf.step
async def decide(job: Job, ctx: maf.RunContext) -> str:
    enter(job.label)
    if job.label == "a":
        return "a:auto"
    answer = await ctx.request_info({"question": job.label}, response_type=str)
    return f"{job.label}:{answer}"


@maf.workflow(name="paused_rerun")
async def paused_rerun(_: str) -> list[str]:
    return [await decide(Job(label=label)) for label in ORDER]


@pytest.mark.parametrize("answered_by", ["checkpoint", "responses"])
def test_4_a_rerun_body_that_pauses_leaves_no_entry_to_take(answered_by: str) -> None:
    installed_as("scoped", "rerun")
    storage = maf.InMemoryCheckpointStorage()
    ORDER[:], CRASH_AT[0] = ["a", "x"], "x"
    with pytest.raises(Crash):
        run(paused_rerun.build(checkpoint_storage=storage).run("go"))
    crashed = run(latest(storage, "paused_rerun"))
    ORDER[:], CRASH_AT[0] = ["b", "a"], None
    workflow = paused_rerun.build(checkpoint_storage=storage)
    paused = run(workflow.run(checkpoint_id=crashed.checkpoint_id))
    (request,) = paused.get_request_info_events()
    if answered_by == "responses":
        answered = run(workflow.run(responses={request.request_id: "yes"}))
    else:
        checkpoint = run(latest(storage, "paused_rerun"))
        answered = run(paused_rerun.build(checkpoint_storage=storage).run(
            checkpoint_id=checkpoint.checkpoint_id, responses={request.request_id: "yes"}))
    assert answered.get_outputs() == [["b:yes", "a:auto"]]


# --- 5. nested calls of a re-run parent get a fresh scope --------------------------------------------

TICKETS = [0]


@maf.step
async def new_ticket() -> str:
    TICKETS[0] += 1
    return f"T{TICKETS[0]}"


@maf.step
async def open_case(job: Job) -> str:
    enter(job.label)
    return f"{job.label}:{await new_ticket()}"


@maf.workflow(name="nested_rerun")
async def nested_rerun(_: str) -> list[str]:
    return [await open_case(Job(label=label)) for label in ORDER]


def test_5_a_rerun_parents_nested_calls_get_a_fresh_scope() -> None:
    installed_as("scoped", "rerun")
    result = run(crash_then_resume(nested_rerun, maf.InMemoryCheckpointStorage(), ["a", "x"], "x", ["b", "a"]))
    (outputs,) = result.get_outputs()
    assert [case.split(":")[0] for case in outputs] == ["b", "a"]
    assert len({case.split(":")[1] for case in outputs}) == 2, outputs  # two cases, two tickets


# --- 6. values that cannot be digested are counted, never a crash -----------------------------------------

@maf.step
async def count_to(job: Job, big: int) -> int:
    enter(job.label)
    return big % 7


@maf.workflow(name="huge_int")
async def huge_int(_: str) -> list[int]:
    return [await count_to(Job(label=label), 10 ** 5000 + len(label)) for label in ORDER]


@pytest.mark.parametrize("mode", ["flat", "scoped"])
def test_6_an_int_over_the_str_limit_is_digested(mode: str) -> None:
    installed_as(mode, "error")
    result = run(crash_then_resume(huge_int, maf.InMemoryCheckpointStorage(), ["a", "bb", "x"], "x", ["a", "bb", "c"]))
    assert result.get_outputs() == [[(10 ** 5000 + 1) % 7, (10 ** 5000 + 2) % 7, (10 ** 5000 + 1) % 7]]
    assert runtime_shim.replay_report().verified == 2


@maf.step(name="s\udc80rrogate")
async def oddly_named(job: Job) -> str:
    enter(job.label)
    return job.label


@maf.workflow(name="surrogate_name")
async def surrogate_name(_: str) -> list[str]:
    return [await oddly_named(Job(label=label)) for label in ORDER]


@pytest.mark.parametrize("mode", ["flat", "scoped"])
def test_6_a_step_name_with_a_surrogate_escape(mode: str) -> None:
    installed_as(mode, "error")
    result = run(crash_then_resume(surrogate_name, maf.InMemoryCheckpointStorage(), ["a", "b", "x"], "x",
                                   ["a", "b", "c"]))
    assert result.get_outputs() == [["a", "b", "c"]]
    assert runtime_shim.replay_report().verified == 2


# --- 11. type caches hold types weakly --------------------------------------------------------------------

@maf.step
async def take_any(job: Job, value: Any) -> str:
    return job.label


@maf.workflow(name="dynamic_types")
async def dynamic_types(_: str) -> list[str]:
    return [await take_any(Job(label="j"), kind(label="x")) for kind in DYNAMIC]


DYNAMIC: list[Any] = []


@pytest.mark.parametrize("mode", ["flat", "scoped"])
def test_11_argument_types_made_per_run_are_not_kept_alive(mode: str) -> None:
    installed_as(mode, "error")
    alive = []
    for index in range(20):
        DYNAMIC[:] = [create_model(f"Dynamic{index}", label=(str, ...))]
        alive.append(weakref.ref(DYNAMIC[0]))
        run(dynamic_types.build(checkpoint_storage=maf.InMemoryCheckpointStorage()).run("go"))
    DYNAMIC.clear()
    gc.collect()
    assert sum(ref() is not None for ref in alive) == 0


# --- 12. install() is counted per holder ------------------------------------------------------------

def test_12_the_pytest_plugins_hold_outlives_the_applications_uninstall() -> None:
    options = {"steplint_shim": "scoped", "steplint_shim_unfingerprintable": "allow", "steplint_shim_replay": None,
               "steplint_shim_mutation": "warn"}
    config = SimpleNamespace(getoption=lambda name: options[name])
    pytest_plugin.pytest_configure(config)
    try:
        runtime_shim.install(mode="scoped")  # the application's own start-up, and its shutdown
        runtime_shim.uninstall()
        assert runtime_shim.installed_mode() == "scoped"
        assert "installed" in pytest_plugin.pytest_report_header(config)
    finally:
        pytest_plugin.pytest_unconfigure(config)
    assert runtime_shim.installed_mode() is None


# --- 7. records that are stable across processes, storages and the way a module was started -------------

FLOW = """
import asyncio, enum, json, os, sys
import agent_framework as maf
from pydantic import BaseModel
from steplint import runtime_shim

class Job(BaseModel):
    label: str

class Color(str, enum.Enum):  # FileCheckpointStorage gives a cached Color back as a plain str
    RED = "red"

class Tags:  # recorded through its state: a set of str, whose order follows the hash seed
    def __init__(self, names):
        self.names = set(names)

    def __eq__(self, other):
        return isinstance(other, Tags) and self.names == other.names

RAN = []

@maf.step
async def pick(job: Job) -> Color:
    RAN.append("pick")
    return Color.RED

@maf.step
async def paint(job: Job, color: Color, tags: Tags) -> str:
    RAN.append("paint")
    return job.label + ":" + str(getattr(color, "value", color)) + ":" + str(len(tags.names))

@maf.step
async def finish(job: Job) -> str:
    if os.environ.get("CRASH"):
        os._exit(3)
    RAN.append("finish")
    return job.label

@maf.workflow(name="crossing")
async def crossing(_: str) -> list[str]:
    color = await pick(Job(label="p"))
    return [await paint(Job(label="q"), color, Tags("abcdefgh")), await finish(Job(label="r"))]

async def main():
    runtime_shim.install(mode="flat", on_replay_mismatch="error")
    storage = maf.FileCheckpointStorage(os.environ["CHECKPOINTS"])
    checkpoints = await storage.list_checkpoints(workflow_name="crossing")
    workflow = crossing.build(checkpoint_storage=storage)
    if not checkpoints:
        await workflow.run("go")
        return
    last = max(checkpoints, key=lambda c: (c.iteration_count, c.timestamp))
    try:
        result = await workflow.run(checkpoint_id=last.checkpoint_id)
        outcome = {"output": result.get_outputs()}
    except Exception as exc:
        outcome = {"error": type(exc).__name__ + ": " + str(exc)}
    report = runtime_shim.replay_report()
    print(json.dumps({**outcome, "ran": RAN, "verified": report.verified, "mismatched": report.mismatched}))

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_7_a_resume_in_another_process_by_import_with_another_hash_seed(tmp_path: Any) -> None:
    import json
    import os
    import subprocess
    import sys

    (tmp_path / "flow.py").write_text(FLOW)
    environment = {**os.environ, "CHECKPOINTS": str(tmp_path / "checkpoints"), "PYTHONDONTWRITEBYTECODE": "1",
                   "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    started = subprocess.run([sys.executable, "flow.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                             env={**environment, "CRASH": "1", "PYTHONHASHSEED": "1"})
    assert started.returncode == 3, started.stderr  # started as __main__, killed in finish
    # 1.20+ refuses a checkpoint resumed by the module's import name itself (its signature hash covers the
    # module): there the resume runs the script again, still with another hash seed.
    resume = ["flow.py"] if HAS_FINGERPRINTS else ["-c", "import asyncio, flow; asyncio.run(flow.main())"]
    resumed = subprocess.run([sys.executable, *resume], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                             env={**environment, "PYTHONHASHSEED": "2"})
    assert resumed.returncode == 0, resumed.stderr
    outcome = json.loads(resumed.stdout.strip().splitlines()[-1])
    assert outcome == {"output": [["q:red:8", "r"]], "ran": ["finish"], "verified": 2, "mismatched": 0}


# --- 8. a run is judged from its first checkpoint, whatever nests later ------------------------------

DELAY: list[float] = [0.0]


@maf.step
async def top(label: str) -> str:
    enter(label)
    return label.upper()


@maf.step
async def inner(label: str) -> str:
    return label.upper()


@maf.step
async def outer(label: str) -> str:
    enter(label)
    return "<" + await inner(label) + ">"


async def top_later(label: str) -> str:
    await asyncio.sleep(DELAY[0])
    return await top(label)


@maf.workflow(name="gathered_then_nested")
async def gathered_then_nested(_: str) -> list[str]:
    return list(await asyncio.gather(top_later("a"), outer("b")))


def test_8_a_scoped_runs_checkpoints_before_it_nests_are_its_own() -> None:
    installed_as("scoped", None)
    storage = maf.InMemoryCheckpointStorage()
    DELAY[0] = 0.0
    ORDER[:] = []
    CRASH_AT[0] = "b"  # the first run: top(a) completes (a checkpoint), outer(b) crashes before it nests
    with pytest.raises(Crash):
        run(gathered_then_nested.build(checkpoint_storage=storage).run("go"))
    checkpoint = run(latest(storage, "gathered_then_nested"))
    CRASH_AT[0], DELAY[0] = None, 0.05  # the resume: b nests and checkpoints before a asks for its entry
    RAN.clear()
    result = run(gathered_then_nested.build(checkpoint_storage=storage).run(checkpoint_id=checkpoint.checkpoint_id))
    assert result.get_outputs() == [["A", "<B>"]]
    assert RAN == ["b"]  # a's completed body is not run again


# --- 9. a memoized task is the same call whichever step starts it on a resume ------------------------------

MEMO: dict[str, Any] = {}  # the application's module-level memo: one shared load per run


@maf.step
async def load_config(name: str) -> str:  # a str: MAF 1.20+ refuses a concurrent call it cannot fingerprint
    enter("load")
    return f"cfg:{name}"


def shared_config(label: str) -> Any:
    """Started by whichever step needs it first (in a task of that step), awaited by every step that needs it."""
    task = MEMO.get("config")
    if task is None:
        task = MEMO["config"] = asyncio.ensure_future(load_config(label))
    return task


@maf.step
async def prefetch(label: str) -> str:  # str arguments: 1.20+ refuses a concurrent call it cannot fingerprint
    enter(label)
    shared_config("main")  # started, not awaited: the next step awaits it
    return label


@maf.step
async def configured(label: str) -> str:
    config = await shared_config("main")
    enter(label)
    return f"{label}/{config}"


@maf.workflow(name="memoized")
async def memoized(_: str) -> list[str]:
    MEMO.clear()  # a new process, as far as the memo knows
    first = prefetch if ORDER[0] == "prefetch" else configured
    return [await first("a"), await configured("b")]


@pytest.mark.parametrize("policy", ["rerun", "error"])
def test_9_a_memoized_task_is_not_run_again_when_another_step_starts_it(policy: str) -> None:
    installed_as("scoped", policy)
    result = run(crash_then_resume(memoized, maf.InMemoryCheckpointStorage(), ["prefetch"], "b", ["prefetch"]))
    assert result.get_outputs() == [["a", "b/cfg:main"]]
    assert RAN == ["b"]  # load_config's completed body is taken from the checkpoint, as MAF alone takes it
    report = runtime_shim.replay_report()
    assert report.adopted == 1 and report.mismatched == 0, report


def test_9_limit_a_memoized_task_its_starter_awaits_runs_again() -> None:
    """Started and awaited inside one step's body, the load is that step's own call as far as anything can
    tell (a gathered call with the same arguments looks the same): a resume where another step starts it runs
    it again (README, "Limits"). The result is still right."""
    installed_as("scoped", "rerun")
    result = run(crash_then_resume(memoized, maf.InMemoryCheckpointStorage(), ["configured"], "b", ["configured"]))
    assert result.get_outputs() == [["a/cfg:main", "b/cfg:main"]]
    assert RAN == ["load", "b"]
    assert runtime_shim.replay_report().adopted == 0


# --- 10. install() during a run leaves that run on the code path it started on ----------------------------

@maf.step
async def installs_the_shim(label: str) -> str:
    runtime_shim.install(mode="scoped")  # as another task's start-up might, while this run is in flight
    return label.upper()


@maf.workflow(name="installed_midway")
async def installed_midway(_: str) -> list[str]:
    return [await top("a"), await installs_the_shim("b"), await outer("c")]


def test_10_a_run_started_without_the_shim_stays_on_mafs_code() -> None:
    installed_as(None)
    storage = maf.InMemoryCheckpointStorage()
    result = run(installed_midway.build(checkpoint_storage=storage).run("go"))
    assert result.get_outputs() == [["A", "B", "<C>"]]
    keys = cache_keys(run(latest(storage, "installed_midway")))
    assert any(key.startswith("top") or '"top"' in key for key in keys), keys  # kept: nothing before it dropped
    assert not any(SCOPED.search(key) for key in keys), keys  # MAF's keys, as the run started
