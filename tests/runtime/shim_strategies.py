"""Hypothesis strategies and settings shared by the runtime shim's property tests."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from shim_support import examples
from shim_trees import STEP_NAMES, Node


def nodes(depth: int, min_children: int = 0, concurrent: bool = False) -> st.SearchStrategy[Node]:
    """A step call with up to three children per level, *depth* levels down.

    With *concurrent*, a call's children may be awaited together (asyncio.gather).
    """
    if depth == 0:
        children: st.SearchStrategy[tuple[Node, ...]] = st.just(())
    else:
        children = st.lists(nodes(depth - 1, concurrent=concurrent), min_size=min_children, max_size=3).map(tuple)
    return st.builds(
        Node,
        step=st.sampled_from(STEP_NAMES),
        label=st.sampled_from("ab"),
        children=children,
        via_helper=st.booleans(),
        concurrent_children=st.booleans() if concurrent else st.just(False),
    )


def trees(concurrent: bool = False) -> st.SearchStrategy[tuple[Node, ...]]:
    """Up to four top-level calls; half of them are sure to nest, or most small trees would be flat."""
    return st.lists(
        st.one_of(nodes(2, concurrent=concurrent), nodes(2, min_children=1, concurrent=concurrent)),
        min_size=1,
        max_size=4,
    ).map(tuple)


def example_settings(default: int, **overrides: object) -> settings:
    return settings(
        max_examples=examples(default),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        **overrides,
    )
