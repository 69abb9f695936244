"""The replay record's digest: equal for equal calls in any process, different where a call differs.

Pure Python (no agent_framework): the step is a stand-in with the attributes
CallShape reads from MAF's StepWrapper.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
from pathlib import Path
import inspect
import subprocess
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, PrivateAttr

from steplint.runtime_shim.replay_digest import (
    UNDIGESTABLE,
    CallShape,
    Undigestable,
    canonical,
    differences,
    field_snapshot,
    quick_record,
    record_call,
    unchanged_since,
    unpack,
)
from steplint.runtime_shim.replay_records import RecordLog


class Job(BaseModel):
    label: str
    secret: str = "s3cr3t"


class Loose(BaseModel):
    model_config = ConfigDict(extra="allow")
    label: str


@dataclasses.dataclass
class Point:
    x: int
    y: list[int]


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Level(enum.IntEnum):
    LOW = 1


class Masked(str):
    """A secret-like str whose repr hides its value."""

    def __repr__(self) -> str:
        return "Masked('***')"


class Private(BaseModel):
    label: str
    _token: str = PrivateAttr(default="")

    def __init__(self, token: str = "", **fields: object) -> None:
        super().__init__(**fields)
        self._token = token


class Tagged:
    """A value compared by its state: a set of str (in hash-seed order when pickled)."""

    def __init__(self, names: list[str]) -> None:
        self.names = set(names)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tagged) and self.names == other.names


class FakeStep:
    """The attributes of agent_framework's StepWrapper that CallShape reads."""

    def __init__(self, function, name: str | None = None, context: str | None = None) -> None:
        self._func = function
        self.name = name or function.__name__
        self._signature = inspect.signature(function)
        self._ctx_param_name = context


async def work(job, count: int = 1, *, tag: str = "t"):
    return job


SHAPE = CallShape(FakeStep(work))


def record(*args, **kwargs) -> int:
    return record_call(SHAPE, args, kwargs)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ({"b": 1, "a": 2}, {"a": 2, "b": 1}),
        ({3, 1, 2}, {2, 3, 1}),
        (Job(label="a"), Job(label="a")),
        (Point(1, [2]), Point(1, [2])),
        (Color.RED, Color("red")),
        # What MAF's checkpoint round trip turns one into the other (FileCheckpointStorage): one form.
        (Level.LOW, 1),
        (Color.RED, "red"),
        ([1, 2], (1, 2)),
        (Masked("x"), "x"),
        ({1: "a"}, {"1": "a"}),
    ],
)
def test_equal_values_have_one_form(left: object, right: object) -> None:
    assert canonical(left) == canonical(right)


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (1, "1"),
        (1, 1.0),
        (1, True),
        ([1, 2], [2, 1]),
        (Masked("x"), Masked("y")),
        (Private(label="a", token="x"), Private(label="a", token="y")),
        (Job(label="a"), Job(label="b")),
        (Loose(label="a", extra=1), Loose(label="a", extra=2)),
        (Point(1, [2]), Point(1, [3])),
        (None, "None"),
    ],
)
def test_different_values_have_different_forms(left: object, right: object) -> None:
    assert canonical(left) != canonical(right)


def test_forms_are_the_same_in_another_process() -> None:
    """No hash(), id() or memory order: a record made before a crash matches the call after it."""
    value = "{'z': {3, 1, 2}, 'a': [1.5, None, b'x', ('t',)]}"
    program = f"from steplint.runtime_shim.replay_digest import canonical; print(canonical({value}).hex())"
    runs = {
        subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                       env={"PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2", "3")
    }
    assert len(runs) == 1


def test_a_value_that_cannot_be_pickled_is_undigestable() -> None:
    with pytest.raises(Undigestable):
        canonical(threading.Lock())
    with pytest.raises(Undigestable):
        record([threading.Lock()])


def test_an_int_past_the_str_conversion_limit_has_a_form() -> None:
    assert canonical(10 ** 5000) != canonical(10 ** 5000 + 1)


def test_an_object_compared_by_identity_is_undigestable() -> None:
    with pytest.raises(Undigestable):
        canonical(object())


def test_an_objects_state_is_the_same_in_another_process() -> None:
    program = ("import sys; sys.path.insert(0, {path!r}); from test_replay_digest import Tagged; "
               "from steplint.runtime_shim.replay_digest import canonical; "
               "print(canonical(Tagged(list('abcdefghij'))).hex())").format(path=str(Path(__file__).parent))
    runs = {
        subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2", "3")
    }
    assert len(runs) == 1


def test_variadic_arguments_are_part_of_the_record() -> None:
    async def fetch(doc, *tags, **options):
        return doc

    shape = CallShape(FakeStep(fetch))
    assert record_call(shape, ("d",), {"mode": "fast"}) != record_call(shape, ("d",), {"mode": "slow"})
    assert record_call(shape, ("d", "x"), {}) != record_call(shape, ("d", "y"), {})
    assert record_call(shape, ("d", "x"), {"mode": "m"}) == record_call(shape, ("d", "x"), {"mode": "m"})


def test_a_call_is_bound_as_the_body_sees_it() -> None:
    """Positional or by name, defaults filled in: the same call gives the same record."""
    assert record("a") == record("a", 1) == record(job="a", count=1) == record("a", tag="t")
    assert record("a") != record("a", 2)
    assert record("a") != record("a", tag="u")


async def pair(first, second):
    return first


PAIR = CallShape(FakeStep(pair))
IMMUTABLE_VALUES = st.one_of(
    st.integers(), st.integers(min_value=-(2**80), max_value=2**80), st.text(), st.booleans(), st.none(),
    st.floats(allow_nan=False), st.binary(max_size=40), st.complex_numbers(allow_nan=False),
)


class Flat(BaseModel):
    label: str
    count: int = 0
    ratio: float | None = None


@dataclasses.dataclass
class FlatPoint:
    x: int
    name: str


@settings(max_examples=300, deadline=None)
@given(IMMUTABLE_VALUES, IMMUTABLE_VALUES)
def test_the_quick_record_is_the_record(first: object, second: object) -> None:
    """The shim's fast path (quick_record) makes exactly the record and snapshot record_call and field_snapshot
    make, or leaves the call to them."""
    args = (first, second)
    assert quick_record(PAIR, args, {}) == (record_call(PAIR, args, {}), field_snapshot(args, {}))


@settings(max_examples=100, deadline=None)
@given(st.text(), st.integers(), st.one_of(st.none(), st.floats(allow_nan=False)), IMMUTABLE_VALUES)
def test_the_quick_record_of_models_and_dataclasses_is_the_record(label: str, count: int, ratio: object,
                                                                    other: object) -> None:
    for args in [(Flat(label=label, count=count, ratio=ratio), other), (other, FlatPoint(count, label)),
                 (Flat(label=label), Flat(label=label, count=count))]:
        expected = (record_call(PAIR, args, {}), field_snapshot(args, {}))  # decides the types first
        assert quick_record(PAIR, args, {}) == expected


def test_a_call_of_very_many_immutable_arguments_is_left_to_record_call() -> None:
    """record_call folds a record of MAX_SLOTS slots or more; quick_record makes none there."""
    def shape_of(count: int) -> CallShape:
        namespace: dict[str, object] = {}
        exec(f"async def wide({', '.join(f'a{index}' for index in range(count))}): pass", namespace)
        return CallShape(FakeStep(namespace["wide"]))

    narrow, wide = shape_of(63), shape_of(64)
    assert quick_record(narrow, tuple(range(63)), {}) == (record_call(narrow, tuple(range(63)), {}), ())
    assert quick_record(wide, tuple(range(64)), {}) is None


def test_the_quick_record_leaves_every_other_call_to_record_call() -> None:
    assert quick_record(PAIR, ("a", "\udc80"), {}) == (record_call(PAIR, ("a", "\udc80"), {}), ())
    record_call(PAIR, (Loose(label="a", more=1), Private("t", label="a")), {})  # decides both types
    record_call(PAIR, (Point(1, [2]), 1), {})
    for args, kwargs in [((1, [2]), {}), ((Masked("x"), 1), {}), ((1,), {"second": 2}), ((1,), {}),
                         ((Color.RED, 1), {}), ((True, 1, 2), {}),
                         ((Loose(label="a", more=1), 1), {}), ((Private("t", label="a"), 1), {}),
                         ((Point(1, [2]), 1), {})]:
        assert quick_record(PAIR, args, kwargs) is None, args
    assert quick_record(SHAPE, ("a",), {}) is None  # defaults to fill in: not the simple call


def test_a_snapshot_tells_a_field_rebound_from_one_left_alone() -> None:
    flat, point, loose = Flat(label="a"), FlatPoint(1, "pp"), Loose(label="a", more=1)
    snapshot = field_snapshot((flat, point, loose), {})
    assert unchanged_since(snapshot)
    point.name = "q"
    assert not unchanged_since(snapshot)
    point.name = "".join(["p", "p"])  # an equal str, but another object: the digest decides (unchanged_since cannot)
    assert not unchanged_since(snapshot)
    for change in (lambda: setattr(flat, "count", 1), lambda: setattr(loose, "more", 2),
                   lambda: setattr(loose, "added", 3)):
        flat, loose = Flat(label="a"), Loose(label="a", more=1)
        snapshot = field_snapshot((flat, loose), {})
        change()
        assert not unchanged_since(snapshot)
    private = Private("t", label="a")
    snapshot = field_snapshot((private,), {})
    private._token = "u"
    assert not unchanged_since(snapshot)


def test_the_type_table_holds_types_weakly() -> None:
    import gc

    from steplint.runtime_shim.replay_digest import TypeTable

    table = TypeTable()
    made = type("Made", (), {})
    table[made] = "decided"
    assert table.get(made) == "decided" and table.get(int, "none") == "none" and len(table) == 1
    del made
    gc.collect()
    assert len(table) == 0  # the entry went with its type
    for _ in range(200):  # types made and dropped, as a run that makes its models does: nothing accumulates
        kind = type("Other", (), {})
        table[kind] = "its own"
        assert table.get(kind) == "its own" and table.get(type("Third", (), {})) is None
        del kind
    gc.collect()
    assert len(table) == 0


def test_the_run_context_is_left_out() -> None:
    async def with_context(job, ctx):
        return job

    shape = CallShape(FakeStep(with_context, context="ctx"))
    assert record_call(shape, ("a",), {}) == record_call(shape, ("a",), {"ctx": object()})


def test_the_record_names_what_differs_never_the_values() -> None:
    recorded = record(Job(label="a", secret="hunter2"))
    found = differences(SHAPE, (Job(label="a", secret="other"),), {}, recorded)
    assert found == ["argument 'job'", "field job.secret"]
    assert not any("hunter2" in text or "other" in text for text in found)
    assert differences(SHAPE, ("a",), {}, record("b")) == ["argument 'job'"]
    assert differences(SHAPE, ("a",), {}, recorded) == [
        "the arguments' shape (the step's parameters, or a model's fields)"
    ]


def test_another_step_or_definition_never_matches() -> None:
    async def other(job, count: int = 1, *, tag: str = "t"):
        return job

    assert record_call(CallShape(FakeStep(other)), ("a",), {}) != record("a")
    assert record_call(CallShape(FakeStep(work, name="renamed")), ("a",), {}) != record("a")


def test_records_unpack_to_their_slots() -> None:
    packed = record(Job(label="a"))
    slots = unpack(packed)
    assert slots is not None and len(slots) == 6  # the step, job, count, tag, job.label, job.secret
    assert all(0 <= slot < 2**32 for slot in slots)
    assert unpack(1) is None and unpack(5) is None


def chunk_key(index: int) -> str:
    return f"v2::[\"explicit\",\"steplint-replay\",\"steplint-shim\",\"*{index}\"]"


def test_the_record_log_survives_json_in_chunks_under_the_digit_limit() -> None:
    counts: dict = {"work::0": 0}
    log = RecordLog(counts, chunk_key)
    records = {f"work::{index}": record(f"label {index}", index) for index in range(500)}
    for key, value in records.items():
        log.put(key, value)
    assert [key for key in counts if "steplint-replay" in key] == [chunk_key(0)]  # queued: nothing written yet
    log.write()
    chunks = [key for key in counts if "steplint-replay" in key]
    assert 1 < len(chunks) <= 10  # 500 records of 25 bytes in chunks of 1,600: 8 entries, not 500
    text = json.dumps(counts)  # raises ValueError past CPython's 4,300 digits
    restored = RecordLog(json.loads(text), chunk_key)
    assert restored.restored
    assert all(restored.get(key) == value for key, value in records.items())
    assert restored.get("work::500") is None


def test_a_later_record_for_a_key_replaces_the_earlier_and_the_log_goes_on() -> None:
    counts: dict = {}
    log = RecordLog(counts, chunk_key)
    assert not log.restored
    log.put("work::0", record("a"))
    log.put("work::0", record("b"))
    log.put("work::1", UNDIGESTABLE)
    assert log.get("work::0") == record("b")  # a read sees what is queued
    log.write()
    again = RecordLog(dict(counts), chunk_key)
    assert again.get("work::0") == record("b") and again.get("work::1") == UNDIGESTABLE
    again.put("work::2", record("c"))
    again.forget("work::0")
    again.write()
    restored = RecordLog(again.counts, chunk_key)
    assert restored.get("work::2") == record("c") and restored.get("work::0") is None


def test_a_call_with_very_many_arguments_keeps_a_short_record() -> None:
    async def many(*items):
        return items

    shape = CallShape(FakeStep(many))
    packed = record_call(shape, tuple(Job(label=str(index)) for index in range(200)), {})
    assert len(unpack(packed)) <= 64
    assert packed != record_call(shape, tuple(Job(label=str(index + 1)) for index in range(200)), {})
