"""Sets of one value are shared between equal values (memory), never where equal values differ (floats)."""

import math

from steplint.analysis import values
from steplint.analysis.values import (
    ONLY_UNKNOWN, UNKNOWN, ConstValue, ExternalValue, FunctionValue, const, kept, one,
)


def test_equal_values_share_one_set():
    assert one(ExternalValue("json.dumps")) is one(ExternalValue("json.dumps"))
    assert const("id") is const("id")
    assert const(1) is not const(True)  # 1 == True, but not as a literal here
    assert one(UNKNOWN) is ONLY_UNKNOWN


def test_a_float_keeps_its_own_set():
    negative, positive = const(-0.0), const(0.0)
    assert math.copysign(1, next(iter(negative)).value) == -1
    assert math.copysign(1, next(iter(positive)).value) == 1
    assert const(0.5) is not const(0.5)


def test_kept_shares_a_set_of_one_and_leaves_the_others():
    made = frozenset({ConstValue("str", "shared by kept")})
    again = frozenset({ConstValue("str", "shared by kept")})
    assert made is not again
    assert kept(made) == made and kept(again) is kept(made)
    pair = frozenset({ConstValue("int", 1), ConstValue("int", 2)})
    assert kept(pair) is pair
    assert kept(frozenset()) == frozenset()
    function = frozenset({FunctionValue("app.py", "handler", 0)})
    assert kept(function) is function  # held by few places: not worth a table entry


def test_the_table_starts_over_past_its_limit(monkeypatch):
    monkeypatch.setattr(values, "_ONE", values.SharedTable(4, {UNKNOWN: ONLY_UNKNOWN}))
    for index in range(10):
        one(ConstValue("int", index))
    assert len(values._ONE) <= 4
    assert one(UNKNOWN) is ONLY_UNKNOWN


def test_objects_with_the_same_few_keys_share_their_key_set():
    from steplint.analysis.heap import _SHARED_KEYS_UP_TO, _with_key

    first = _with_key(_with_key(None, "name"), "value")
    second = _with_key(_with_key(None, "value"), "name")
    assert first is second and first == {"name", "value"}
    assert _with_key(first, "name") is first

    keys = None
    for index in range(_SHARED_KEYS_UP_TO + 3):
        keys = _with_key(keys, index)
    assert keys == set(range(_SHARED_KEYS_UP_TO + 3))
    assert type(keys) is set  # a large container grows its own set in place
    assert _with_key(keys, "more") is keys and "more" in keys


def test_a_bound_name_and_a_heap_cell_keep_the_shared_set():
    from steplint.analysis.program import Analysis
    from steplint.summaries.file_summary import summarize_source

    source = b"import json\nfirst = json.dumps\nsecond = json.dumps\nclass Box:\n    label = 'shared'\n    other = 'shared'\n"
    summary = summarize_source(source, "boxes.py")
    unit = Analysis([summary]).engine.module_unit(summary)
    env = unit.final_env or unit.env
    assert env["first"] is env["second"] is one(ExternalValue("json.dumps"))
    (box,) = env["Box"]
    heap = unit.session.heap
    assert heap.cells[(box, "label")] is heap.cells[(box, "other")]
