"""What the linter's verdicts rest on, shown on the real agent-framework-core (every release of the matrix).

Each test runs the shape a rule reports (or stays silent on) and asserts what MAF
really does with it: a call-order key, a checkpoint that raises, a TypeError when
decorating. The linter's own tests check that it reports exactly these shapes.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import enum
import sys
import threading
import time
import types
from pathlib import Path
from typing import NamedTuple, TypedDict

import agent_framework as maf
import pytest
from agent_framework import step, workflow
from pydantic import BaseModel
from shim_support import HAS_FINGERPRINTS, MAF_VERSION_TUPLE, cache_keys, chain, latest, run

pytestmark = pytest.mark.filterwarnings("ignore")

NOT_DURABLE = "durable replay identity"


def built(definition, checkpoint_storage):  # noqa: ANN001, ANN201 - a workflow definition and storage
    """The runnable workflow: ``.build()`` makes it from 1.14; before, ``@workflow`` made it, storage and all."""
    if hasattr(definition, "build"):
        return definition.build(checkpoint_storage=checkpoint_storage)
    return type(definition)(definition._func, name=definition.name, checkpoint_storage=checkpoint_storage)


class Order(BaseModel):
    sku: str


class Envelope(TypedDict):
    order: Order


class Label(TypedDict):
    sku: str


@step
async def enveloped(p: Envelope) -> str:
    return p["order"].sku


@step
async def labelled(p: Label) -> str:
    return p["sku"]


@workflow(name="typed-dict-keys")
async def typed_dicts(sku: str) -> list[str]:
    return [await labelled({"sku": sku}), await enveloped({"order": Order(sku=sku)})]


@pytest.mark.skipif(not HAS_FINGERPRINTS, reason="1.18/1.19 key every call by call order")
def test_a_typed_dict_with_a_model_field_falls_back_to_the_call_order_key():
    """STP010 judges a TypedDict by its fields: a model field leaves no fingerprint."""
    storage = maf.InMemoryCheckpointStorage()
    run(built(typed_dicts, storage).run("a"))
    keys = cache_keys(run(latest(storage, "typed-dict-keys")))
    assert "enveloped::0" in keys  # the call-order key
    assert any(key.startswith('v2::["auto","labelled"') for key in keys)  # the fingerprint key


def make_counter():
    count = 0

    @step
    async def bump(x: int) -> int:
        nonlocal count
        count += 1
        return x + count

    return bump


bump = make_counter()


@workflow(name="nonlocal-counter")
async def counting(x: int) -> int:
    return await bump(x)


def _checkpointed_run(flow, *args) -> BaseException | None:  # noqa: ANN001 - a functional workflow
    try:
        run(built(flow, maf.InMemoryCheckpointStorage()).run(*args))
    except Exception as exc:  # the tests expect MAF's own error
        return exc
    return None


def test_a_step_that_declares_nonlocal_is_not_durable():
    """STP012: a ``nonlocal`` cell is a closure; MAF 1.20+ refuses to checkpoint the step's calls."""
    error = _checkpointed_run(counting, 1)
    if HAS_FINGERPRINTS:
        assert isinstance(error, ValueError) and NOT_DURABLE in str(error)
    else:
        assert error is None  # every key is call order already: nothing to refuse


def fresh_options() -> dict[str, int]:
    return {"retries": 3}


@step
async def with_factory_default(label: str, options: dict = fresh_options()) -> str:  # noqa: B008 - the point
    return label


@step
async def with_tuple_default(label: str, window: tuple = (1, 2)) -> str:
    return label


@workflow(name="factory-default")
async def factory_default(label: str) -> str:
    return await with_factory_default(label)


@workflow(name="tuple-default")
async def tuple_default(label: str) -> str:
    return await with_tuple_default(label)


@workflow(name="pausing-counter")
async def pausing_counter(x: int) -> int:
    value = await bump(x)
    await maf.get_run_context().request_info({"question": "go on?"}, response_type=str, request_id="ask")
    return value


@workflow(name="pausing-factory-default")
async def pausing_factory_default(label: str) -> str:
    value = await with_factory_default(label)
    await maf.get_run_context().request_info({"question": "go on?"}, response_type=str, request_id="ask")
    return value


@pytest.mark.parametrize("plain, pausing, argument", [(counting, pausing_counter, 1),
                                                       (factory_default, pausing_factory_default, "a")],
                         ids=["STP012-closure", "STP013-default"])
def test_a_step_that_is_not_durable_fails_only_where_the_run_checkpoints_or_pauses(plain, pausing, argument):
    """STP012's and STP013's messages: the run raises where it checkpoints (a storage) or pauses for request_info,
    storage or not; a run with neither completes."""
    assert len(run(built(plain, None).run(argument)).get_outputs()) == 1  # a counter's value varies: not compared
    try:
        paused = run(built(pausing, None).run(argument))
    except ValueError as error:
        assert HAS_FINGERPRINTS and NOT_DURABLE in str(error)
    else:
        assert not HAS_FINGERPRINTS and paused.get_request_info_events()


def test_a_default_made_by_a_function_returning_a_dict_is_not_durable():
    """STP013: a dict default, wherever it comes from, is not durable identity; a tuple of ints is."""
    error = _checkpointed_run(factory_default, "a")
    if HAS_FINGERPRINTS:
        assert isinstance(error, ValueError) and NOT_DURABLE in str(error)
    else:
        assert error is None
    assert _checkpointed_run(tuple_default, "a") is None


def test_an_async_generator_step_raises_type_error_when_decorated():
    """STP040: MAF's step takes only coroutine functions; an async generator is not one."""

    async def stream(prompt: str):
        yield prompt

    with pytest.raises(TypeError):
        step(stream)


@step
async def fetch(order: Order) -> str:
    return order.sku


@workflow(name="wait-for")
async def waited(sku: str) -> str:
    return await asyncio.wait_for(fetch(Order(sku=sku)), 5)


def test_wait_for_runs_the_step_in_another_task_before_python_3_12():
    """STP020 treats ``asyncio.wait_for`` as a spawner below Python 3.12 (target-python)."""
    error = _checkpointed_run(waited, "a")
    if HAS_FINGERPRINTS and sys.version_info < (3, 12):
        assert isinstance(error, ValueError) and "concurrent" in str(error)
    else:
        assert error is None


CURRENT: list = [None]
KINDS = {
    "lock": threading.Lock,
    "generator": lambda: (x for x in ()),
    "file": lambda: open(__file__, encoding="utf-8"),
    "lambda": lambda: (lambda: 1),
}


class Bag(dict):
    pass


class Numbers(list):
    pass


#: Results whose class a checkpoint keeps or loses by release (STP050 from 1.20 only).
CONTAINERS = {"counter": lambda: collections.Counter("aab"), "dict subclass": lambda: Bag(a=1),
              "list subclass": lambda: Numbers([1, 2])}


@step
async def make_result(label: str):
    return {**KINDS, **CONTAINERS}[CURRENT[0]]()


@step
async def after_result(label: str) -> str:
    return label


@workflow(name="uncheckpointable-result")
async def uncheckpointable(label: str) -> str:
    value = await make_result(label)
    return f"{type(value).__name__}:{await after_result(label)}"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_result_that_cannot_be_checkpointed_fails_loudly_or_resumes_right(kind, tmp_path):
    """No rule for results: every release either raises when checkpointing or resumes to the same output."""
    CURRENT[0] = kind
    for storage in (maf.InMemoryCheckpointStorage(), maf.FileCheckpointStorage(str(tmp_path / kind))):
        try:
            first = run(built(uncheckpointable, storage).run("a")).get_outputs()
        except Exception:
            continue  # loud: MAF's own error, at the checkpoint
        checkpoints = run(chain(storage, "uncheckpointable-result"))
        assert checkpoints, "a checkpointed run saved checkpoints"
        try:  # from the first checkpoint: make_result's result is cached there, after_result's is not
            resumed = run(built(uncheckpointable, storage).run(checkpoint_id=checkpoints[0].checkpoint_id))
        except Exception:
            continue  # loud at resume
        assert resumed.get_outputs() == first, (kind, type(storage).__name__)


class Report(BaseModel):
    text: str


class RegisteredReport(BaseModel):
    text: str


# register_checkpoint_type arrived in 1.15; before it only the storage's allowed_checkpoint_types allows a class.
HAS_REGISTER = hasattr(maf, "register_checkpoint_type")
if HAS_REGISTER:
    maf.register_checkpoint_type(RegisteredReport)
REPORTS: list = [Report]


def test_register_checkpoint_type_exists_from_1_15():
    """STP050's remedy: before 1.15 importing register_checkpoint_type fails, allowed_checkpoint_types is the way."""
    assert HAS_REGISTER == (MAF_VERSION_TUPLE >= (1, 15, 0))


@step
async def summarize(text: str):
    return REPORTS[0](text=text)


@workflow(name="model-result")
async def model_result(text: str) -> str:
    return type(await summarize(text)).__name__


@pytest.mark.parametrize("registered", [False, True], ids=["unregistered", "registered"])
def test_a_model_result_and_file_checkpoints(registered, tmp_path):
    """STP050: 1.18 writes file checkpoints it then skips, silently; 1.19+ raise; a registered class loads."""
    REPORTS[0] = RegisteredReport if registered else Report
    allowed = [f"{__name__}:RegisteredReport"] if registered and not HAS_REGISTER else None
    storage = maf.FileCheckpointStorage(str(tmp_path / "checkpoints"), allowed_checkpoint_types=allowed)
    try:
        run(built(model_result, storage).run("a"))
    except Exception as exc:
        assert not registered and MAF_VERSION_TUPLE >= (1, 19, 0), exc
        return
    listed = run(storage.list_checkpoints(workflow_name="model-result"))
    if registered:
        assert listed
    else:
        assert MAF_VERSION_TUPLE < (1, 19, 0) and listed == []  # the run "succeeded" with nothing to resume from


COUNTER = [0]


@step
async def numbered(label: str) -> str:
    COUNTER[0] += 1
    return f"{label}#{COUNTER[0]}"


@step
async def outer_numbered(label: str) -> str:
    return await numbered(label)


@workflow(name="equal-arguments")
async def equal_arguments(label: str) -> list[str]:
    return [await outer_numbered(label), await numbered(label)]


@pytest.mark.skipif(not HAS_FINGERPRINTS, reason="1.18/1.19: every key is call order (the error message's case)")
def test_with_fingerprints_a_skipped_nested_call_hands_its_result_to_a_later_equal_call():
    """STP001/STP002 as warnings (1.20+, fingerprintable inner step): what their message says happens."""
    COUNTER[0] = 0
    storage = maf.InMemoryCheckpointStorage()
    first = run(built(equal_arguments, storage).run("a")).get_outputs()
    assert first == [["a#1", "a#2"]]
    resumes = []
    for checkpoint in run(chain(storage, "equal-arguments")):
        resumed = run(built(equal_arguments, storage).run(checkpoint_id=checkpoint.checkpoint_id))
        resumes.append(resumed.get_outputs())
    # From the checkpoint after outer_numbered, the direct call takes the nested call's entry ("a#1").
    assert [["a#1", "a#1"]] in resumes, resumes


@dataclasses.dataclass
class Receipt:
    id: int


issued: list[int] = []


@step
async def issue_receipt(id: int) -> Receipt:
    issued.append(id)  # the side effect that happens before the checkpoint that cannot hold the result
    return Receipt(id)


@step
async def tally(id: int) -> int:
    return id + 1


async def receipts_body(id: int) -> int:
    return await tally((await issue_receipt(id)).id)


def _run_checkpointed(body, name: str, storage, *args, **kwargs) -> object:  # noqa: ANN001
    """Run ``body`` as a workflow checkpointed to ``storage``: ``build`` on 1.18+, the decorator's storage before."""
    made = workflow(name=name)(body)
    if hasattr(made, "build"):
        return run(made.build(checkpoint_storage=storage).run(*args, **kwargs))
    return run(workflow(name=name, checkpoint_storage=storage)(body).run(*args, **kwargs))


def _run_with_storage(name: str, storage) -> object:  # noqa: ANN001 - a MAF checkpoint storage
    return _run_checkpointed(receipts_body, name, storage, 1)


def test_an_unrestorable_result_breaks_a_file_checkpoint_but_not_an_in_memory_one(tmp_path):
    """STP050 reports only where a FileCheckpointStorage checkpoints the step; the story depends on the release."""
    _run_with_storage("receipts-in-memory", maf.InMemoryCheckpointStorage())  # any object is fine in memory
    issued.clear()
    storage = maf.FileCheckpointStorage(str(tmp_path))
    if MAF_VERSION_TUPLE >= (1, 19, 0):
        with pytest.raises(maf.WorkflowCheckpointException, match="deserialization blocked"):
            _run_with_storage("receipts-file", storage)
        assert issued == [1]  # the step's side effect happened before the failing checkpoint
    else:
        _run_with_storage("receipts-file", storage)  # 1.2-1.18: written, then skipped silently when listed
        listed = storage.list_checkpoints
        found = run(listed(workflow_name="receipts-file") if "workflow_name" in listed.__code__.co_varnames else listed())
        assert found == [] and list(tmp_path.iterdir())


@pytest.mark.skipif(MAF_VERSION_TUPLE < (1, 19, 0), reason="before 1.19 the checkpoint is skipped, not raised")
def test_allowed_checkpoint_types_fix_an_unrestorable_result(tmp_path):
    """STP050's advice on 1.19+: the storage's allowed_checkpoint_types restores the class."""
    allowed = [f"{Receipt.__module__}:{Receipt.__qualname__}"]
    storage = maf.FileCheckpointStorage(str(tmp_path), allowed_checkpoint_types=allowed)
    assert _run_with_storage("receipts-allowed", storage).get_outputs() == [2]
    assert hasattr(maf, "register_checkpoint_type")


@pytest.mark.parametrize("kind", sorted(CONTAINERS))
def test_a_dict_or_list_subclass_result_and_file_checkpoints(kind, tmp_path):
    """STP050 on containers: before 1.20 any dict/list is stored as a plain one (its class is lost, never refused);
    from 1.20 a subclass is pickled, so one outside the allowlist raises, and Counter is on the allowlist."""
    CURRENT[0] = kind
    storage = maf.FileCheckpointStorage(str(tmp_path))
    try:
        first = run(built(uncheckpointable, storage).run("a")).get_outputs()
    except maf.WorkflowCheckpointException as exc:
        assert MAF_VERSION_TUPLE >= (1, 20, 0) and kind != "counter", exc
        return
    assert MAF_VERSION_TUPLE < (1, 20, 0) or kind == "counter"
    name = type(CONTAINERS[kind]()).__name__
    assert first == [f"{name}:a"]
    checkpoints = run(chain(storage, "uncheckpointable-result"))
    resumed = run(built(uncheckpointable, storage).run(checkpoint_id=checkpoints[0].checkpoint_id)).get_outputs()
    plain = "list" if kind == "list subclass" else "dict"
    assert resumed == [f"{name if MAF_VERSION_TUPLE >= (1, 20, 0) else plain}:a"]


classified: list[str] = []


@step
async def classify_text(text: str) -> str:
    classified.append(text)
    return "hr" if "leave" in text else "it"


@step
async def retrieve_answer(text: str, domain: str) -> str:
    return f"{domain}: answer to {text}"


async def timed_body(text: str) -> dict:
    start = time.monotonic()
    domain = await classify_text(text)
    answer = await retrieve_answer(text, domain)
    return {"answer": answer, "processing_time_ms": int((time.monotonic() - start) * 1000)}


def test_a_monotonic_duration_in_the_output_resumes_right(tmp_path):
    """STP030 is silent on a duration that only reaches the output: a resumed run measures its own time."""
    classified.clear()
    storage = maf.FileCheckpointStorage(str(tmp_path))
    first = _run_checkpointed(timed_body, "timed", storage, "annual leave").get_outputs()
    checkpoints = run(chain(storage, "timed"))
    resumed = _run_checkpointed(timed_body, "timed", storage, checkpoint_id=checkpoints[0].checkpoint_id).get_outputs()
    assert classified == ["annual leave"]  # replayed, not run again
    assert [{**o, "processing_time_ms": 0} for o in resumed] == [{**o, "processing_time_ms": 0} for o in first]
    assert all(o["processing_time_ms"] >= 0 for o in resumed)


async def classify_and_stamp(text: str) -> dict:
    """A plain helper that runs a step, then reads the clock for the output only."""
    domain = await classify_text(text)
    return {"domain": domain, "at": time.time()}


async def stamped_body(text: str) -> dict:
    return await classify_and_stamp(text)


def test_a_helper_that_runs_a_step_and_stamps_its_output_resumes_right(tmp_path):
    """STP030 is silent on a reading a helper makes after its step and only returns to the output (a real
    application's shape): the resumed run replays the step and reports its own reading."""
    classified.clear()
    storage = maf.FileCheckpointStorage(str(tmp_path))
    first = _run_checkpointed(stamped_body, "stamped", storage, "leave").get_outputs()
    checkpoints = run(chain(storage, "stamped"))
    time.sleep(0.01)  # another clock reading on resume
    resumed = _run_checkpointed(stamped_body, "stamped", storage, checkpoint_id=checkpoints[0].checkpoint_id)
    assert classified == ["leave"]  # replayed, not run again
    [before], [after] = first, resumed.get_outputs()
    assert after["domain"] == before["domain"] == "hr" and after["at"] > before["at"]


def load_session(cid: str) -> dict:
    return {"cid": cid, "loaded_at": time.time()}


async def session_body(text: str) -> str:
    session = load_session("c1")  # a clock reading kept beside the deterministic key the run uses
    return await classify_text(text) + session["cid"]


def test_a_clock_reading_no_step_or_branch_reads_resumes_right(tmp_path):
    """STP030 is silent where the reading never reaches what replays (shared/realworld fn10's shape): the
    resumed run makes another reading, reads only the other key, and returns the uninterrupted run's output."""
    classified.clear()
    storage = maf.FileCheckpointStorage(str(tmp_path))
    first = _run_checkpointed(session_body, "session", storage, "leave").get_outputs()
    checkpoints = run(chain(storage, "session"))
    time.sleep(0.01)  # another clock reading on resume
    resumed = _run_checkpointed(session_body, "session", storage, checkpoint_id=checkpoints[0].checkpoint_id)
    assert classified == ["leave"]  # the step replayed
    assert resumed.get_outputs() == first == ["hrc1"]


charged: list[float] = []


@step
async def charge(amount: int, deadline: float) -> str:
    charged.append(deadline)
    return f"charged {amount}"


async def paying_body(amount: int) -> str:
    deadline = time.time() + 60
    return await tally_charge(await charge(amount, deadline))


@step
async def tally_charge(receipt: str) -> str:
    return receipt


def test_a_clock_reading_in_a_step_argument_reruns_or_replays_a_stale_result(tmp_path):
    """STP030's story for a step argument: 1.20+ keys by fingerprint (the step runs again), before by call order
    (the step replays the result it computed from the first run's argument)."""
    charged.clear()
    storage = maf.FileCheckpointStorage(str(tmp_path))
    _run_checkpointed(paying_body, "paying", storage, 5)
    last = run(chain(storage, "paying"))[-1]
    time.sleep(0.01)  # another clock reading on resume
    _run_checkpointed(paying_body, "paying", storage, checkpoint_id=last.checkpoint_id)
    assert len(charged) == (2 if HAS_FINGERPRINTS else 1)


class Connection:
    """A live client: no release fingerprints it (a plain class), so a step taking it is keyed by call order."""


sent: list[float] = []


@step
async def send_by(connection: Connection, deadline: float) -> str:
    sent.append(deadline)
    return "sent"


async def sending_body(amount: int) -> str:
    deadline = time.time() + 60
    return await tally_charge(await send_by(Connection(), deadline))


def test_a_clock_reading_in_an_argument_of_a_call_order_keyed_step_replays(tmp_path):
    """STP030 is silent on an argument of a step keyed by call order (every step before 1.20; from 1.20 one with an
    argument MAF cannot fingerprint and no replay_key): the reading does not enter the key, the step replays."""
    sent.clear()
    storage = maf.FileCheckpointStorage(str(tmp_path))
    _run_checkpointed(sending_body, "sending", storage, 5)
    last = run(chain(storage, "sending"))[-1]
    time.sleep(0.01)  # another clock reading on resume
    resumed = _run_checkpointed(sending_body, "sending", storage, checkpoint_id=last.checkpoint_id)
    assert len(sent) == 1  # replayed through the call-order key, not run again
    assert resumed.get_outputs() == ["sent"]


STP041_FACTORIES = Path(__file__).resolve().parents[2] / "fixtures" / "stp041_step_factories" / "compat.py"


def _keyed_job(job: str):  # noqa: ANN202 - the step's body
    async def body(job: str) -> str:
        return job
    return body


@pytest.mark.parametrize("make, refused", [
    (lambda compat: compat.keyed_step(_keyed_job("a")), True),
    (lambda compat: compat.step_with(replay_key=lambda job: job)(_keyed_job("b")), True),
    (lambda compat: compat.none_keyed(_keyed_job("c")), True),
    (lambda compat: compat.named_step(_keyed_job("d")), False),
    (lambda compat: compat.step_with(name="configured")(_keyed_job("e")), False),
], ids=["wrapper", "factory", "none", "named-wrapper", "named-factory"])
def test_a_wrapper_passing_replay_key_raises_type_error_before_1_20(make, refused):
    """STP041 through the project's wrappers (fixtures/stp041_step_factories): the keyword, whatever its value,
    makes 1.19's step() raise TypeError when the wrapper runs; a wrapper passing only name= is fine."""
    compat: dict = {"__name__": "stp041_compat"}
    exec(compile(STP041_FACTORIES.read_text(), str(STP041_FACTORIES), "exec"), compat)
    wrappers = types.SimpleNamespace(**compat)
    if refused and MAF_VERSION_TUPLE < (1, 20, 0):
        with pytest.raises(TypeError):
            make(wrappers)
    else:
        assert isinstance(make(wrappers), maf.StepWrapper)


@dataclasses.dataclass
class FetchOptions:
    verbose: bool = False


@step
async def fetch_page(url: str, options: FetchOptions | None = None) -> str:
    return url


@step
async def send_mail(to: str, attachments: list[FetchOptions]) -> str:
    return to


@workflow(name="bound-literals")
async def bound_literals(url: str) -> list[str]:
    return list(await asyncio.gather(fetch_page(url), fetch_page(url, None), send_mail(url, []),
                                     send_mail(url, attachments=[])))


@workflow(name="bound-dataclass")
async def bound_dataclass(url: str) -> list[str]:
    return list(await asyncio.gather(fetch_page(url, FetchOptions())))


def test_a_concurrent_call_is_refused_by_the_values_it_binds_not_by_the_annotations():
    """STP020 (fixtures/stp020_bound_values.py): MAF fingerprints the bound arguments with their defaults applied,
    so a parameter annotated with a dataclass is no reason where the call leaves it to ``None`` or passes ``[]``;
    passing the dataclass is."""
    assert _checkpointed_run(bound_literals, "u") is None
    error = _checkpointed_run(bound_dataclass, "u")
    if HAS_FINGERPRINTS:
        assert isinstance(error, ValueError) and "concurrent" in str(error)
    else:
        assert error is None  # every key is call order: nothing is refused


class RankTier(str, enum.Enum):
    GOLD = "gold"


class GridPoint(NamedTuple):
    x: int


@step
async def rank_tier(tier: str) -> str:
    return tier


@step
async def place_point(point: tuple) -> int:
    return point[0]


@workflow(name="bound-plain")
async def bound_plain(url: str) -> list:
    return list(await asyncio.gather(rank_tier("gold"), place_point((1,))))


@workflow(name="bound-enum-member")
async def bound_enum_member(url: str) -> list:
    return list(await asyncio.gather(rank_tier(RankTier.GOLD)))


@workflow(name="bound-named-tuple")
async def bound_named_tuple(url: str) -> list:
    return list(await asyncio.gather(place_point(GridPoint(1))))


@step
async def count_keys(counts: dict) -> int:
    return len(counts)


@workflow(name="bound-str-keys")
async def bound_str_keys(url: str) -> list:
    return list(await asyncio.gather(count_keys({"a": 1}), count_keys({})))


@workflow(name="bound-int-keys")
async def bound_int_keys(url: str) -> list:
    return list(await asyncio.gather(count_keys({1: "a"})))


@workflow(name="bound-range")
async def bound_range(url: str) -> list:
    return list(await asyncio.gather(place_point(range(3))))


@workflow(name="bound-bytearray")
async def bound_bytearray(url: str) -> list:
    return list(await asyncio.gather(count_keys(bytearray(b"a"))))


def test_a_concurrent_call_is_refused_for_a_value_its_annotation_does_not_foresee():
    """STP020 (fixtures/stp020_bound_values.py): MAF takes exactly a str (``type(value) is str``), so a str Enum member
    given to a ``str`` parameter, or a NamedTuple to a ``tuple`` one, has no identity: the concurrent call is refused."""
    assert _checkpointed_run(bound_plain, "u") is None
    assert _checkpointed_run(bound_str_keys, "u") is None
    # a dict keyed by an int: MAF fingerprints a mapping only where every key is a str; a range or a bytearray is
    # none of the exact types it takes, whatever the parameter says
    for flow in (bound_enum_member, bound_named_tuple, bound_int_keys, bound_range, bound_bytearray):
        error = _checkpointed_run(flow, "u")
        if HAS_FINGERPRINTS:
            assert isinstance(error, ValueError) and "concurrent" in str(error), flow
        else:
            assert error is None, flow


STORAGE_CHAIN = Path(__file__).parents[2] / "fixtures" / "stp050_storage_chain"


@pytest.mark.skipif(MAF_VERSION_TUPLE < (1, 19, 0), reason="before 1.19 the checkpoint is skipped, not raised")
def test_the_allowed_entry_stp050_names_restores_the_class(tmp_path, monkeypatch):
    """STP050 names fixtures/stp050_storage_chain's Receipt ``app.jobs:Receipt`` (tests/test_doc_example_truths.py):
    imported as that fixture's package, the class is keyed so, and a storage allowing it checkpoints and lists."""
    monkeypatch.syspath_prepend(str(STORAGE_CHAIN))
    for name in [name for name in sys.modules if name == "app" or name.startswith("app.")]:
        monkeypatch.delitem(sys.modules, name)
    from app import flows, jobs

    assert f"{jobs.Receipt.__module__}:{jobs.Receipt.__qualname__}" == "app.jobs:Receipt"
    blocked = maf.FileCheckpointStorage(str(tmp_path / "blocked"))
    with pytest.raises(maf.WorkflowCheckpointException, match="deserialization blocked"):
        run(built(flows.billing, blocked).run(3))
    allowed = maf.FileCheckpointStorage(str(tmp_path / "allowed"), allowed_checkpoint_types=["app.jobs:Receipt"])
    assert run(built(flows.billing, allowed).run(3)).get_outputs() == [3]
    assert run(allowed.list_checkpoints(workflow_name="billing"))


SCRIPT = '''
import asyncio
import sys
import tempfile

from agent_framework import FileCheckpointStorage, step, workflow


class Receipt:
    def __init__(self, total: int) -> None:
        self.total = total


@step
async def charge(amount: int) -> Receipt:
    return Receipt(amount)


@workflow
async def billing(amount: int) -> int:
    return (await charge(amount)).total


async def main(allowed: str) -> str:
    storage = FileCheckpointStorage(tempfile.mkdtemp(), allowed_checkpoint_types=[allowed])
    built = billing.build(checkpoint_storage=storage) if hasattr(billing, "build") else type(billing)(
        billing._func, name=billing.name, checkpoint_storage=storage)
    try:
        await built.run(3)
    except Exception as exc:
        return type(exc).__name__
    return "restored"


if __name__ == "__main__":
    print(asyncio.run(main(sys.argv[1])))
'''


@pytest.mark.skipif(MAF_VERSION_TUPLE < (1, 19, 0), reason="before 1.19 the checkpoint is skipped, not raised")
def test_a_class_of_a_file_run_as_a_script_is_allowed_as_mains(tmp_path):
    """STP050's fix for a module with ``if __name__ == "__main__":`` names both keys (tests/test_doc_example_truths.py):
    run as a script, MAF keys the class ``__main__:Receipt``, and the imported name does not restore it."""
    import subprocess

    script = tmp_path / "jobs.py"
    script.write_text(SCRIPT)
    outcomes = {allowed: subprocess.run([sys.executable, str(script), allowed], capture_output=True, text=True,
                                        check=True).stdout.strip().splitlines()[-1]
                for allowed in ("jobs:Receipt", "__main__:Receipt")}
    assert outcomes == {"jobs:Receipt": "WorkflowCheckpointException", "__main__:Receipt": "restored"}
