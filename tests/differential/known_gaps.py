"""Disagreements between steplint and the trace that are known, each with its family and reason.

Keyed by (kind, rule, shape): the shape (differential/shapes.py) names the construct, and its
family says which part of issue 32 it belongs to. tests/test_differential.py fails on a
disagreement not listed here, and on a listed one its derandomized batch no longer shows (fixed:
remove the row), so this table stays what the analysis does. The goal is an empty table.
"""

from __future__ import annotations

from dataclasses import dataclass

FN = "false negative"
FP = "false positive"


@dataclass(frozen=True)
class KnownGap:
    family: str
    reason: str


KNOWN_GAPS: dict[tuple[str, str, str], KnownGap] = {
    # Python's data model: records and enum members are not values with fields yet.
    # Protocol methods: what Python calls for you is not a call edge yet.
    (FN, "STP001", "getattr_dunder"): KnownGap("protocol methods", "an attribute a class's `__getattr__` answers is unknown"),
    (FN, "STP002", "async_context_manager"): KnownGap("protocol methods", "`async with C()` calls `C.__aenter__`, which calls the step: no implicit call edge"),
    (FN, "STP002", "async_iterator"): KnownGap("protocol methods", "`async for` calls `__anext__`, which calls the step: no implicit call edge"),
    (FN, "STP002", "await_dunder"): KnownGap("protocol methods", "`await obj` calls `__await__`, which makes the step's coroutine: no implicit call edge"),
    (FN, "STP002", "property_returns_coroutine"): KnownGap("protocol methods", "reading a property runs its getter, which calls the step: no implicit call edge"),
    # The standard library's higher-order functions are opaque.
    (FN, "STP002", "exit_stack_context"): KnownGap("stdlib higher-order", "`AsyncExitStack.enter_async_context(cm)` calls `cm.__aenter__`: not modelled"),
    (FN, "STP001", "exit_stack_callback"): KnownGap(
        "stdlib higher-order",
        "`stack.push_async_callback(step, x)` enters the step when the `async with` block exits (the trace's line): "
        "not modelled; where to report it (the push or the block) is for the model to decide"),
    # Precision: what Python keeps apart, the analysis blurs.
    (FP, "STP001", "dict_keys_apart"): KnownGap(
        "precision: dict keys",
        "dicts built by merging (`{'k': a, **{'k': b}}`, `{**d, 'k': b}`) or by a comprehension keep every value of a key"),
    (FP, "STP001", "index_forms"): KnownGap("precision: dict keys", "a slice with a step (`t[::-1][1]`) keeps every element"),
}

# STP001 is lexical by its documentation ("Nested functions and lambdas in the body count"): a
# call in a nested function of the step's body is reported whether or not the function runs.
DOC_SANCTIONED: dict[tuple[str, str, str], KnownGap] = {
    (FP, "STP001", "dead_nested_function"): KnownGap("dead code", "STP001 reports calls lexically in the body, nested functions included, run or not"),
}
