"""A step made through a project's wrapper is MAF's step itself (what the linter's step factories rest on).

``def step(f): return agent_framework.step(f)`` hands back exactly what ``@agent_framework.step``
makes: a step of the same kind, named by the function (or by the ``name=`` the wrapper passed),
cached under keys of the same form. So the linter judges a step made through such a wrapper
exactly as it judges a direct one.
"""

from __future__ import annotations

import json

import agent_framework as maf
import pytest
from agent_framework import step, workflow
from shim_support import cache_keys, latest, run

pytestmark = pytest.mark.filterwarnings("ignore")


def compat_step(func):
    return maf.step(func)


def renaming_step(func):
    return maf.step(func, name="renamed")


@step
async def direct(x: int) -> int:
    return x + 1


@compat_step
async def through(x: int) -> int:
    return x + 1


@renaming_step
async def through_named(x: int) -> int:
    return x + 1


@workflow(name="made-through-a-wrapper")
async def both(x: int) -> list[int]:
    return [await direct(x), await direct(x + 1), await through(x), await through(x + 1), await through_named(x)]


def _form(key: str, name: str) -> str:
    """A cache key with the step's name and, on 1.20+, its definition's own digest left out."""
    if key.startswith("v2::"):
        parts = json.loads(key[4:])
        key = json.dumps([part for index, part in enumerate(parts) if index != 2])
    return key.replace(name, "<step>")


def test_a_step_made_through_a_wrapper_is_named_and_cached_as_a_direct_one():
    assert type(through) is type(direct)
    assert (direct.name, through.name, through_named.name) == ("direct", "through", "renamed")
    storage = maf.InMemoryCheckpointStorage()
    run(both.build(checkpoint_storage=storage).run(1))
    keys = cache_keys(run(latest(storage, "made-through-a-wrapper")))
    of = {name: sorted(_form(key, name) for key in keys if name in key) for name in ("direct", "through")}
    of["through"] = [key for key in of["through"] if "renamed" not in key]
    assert len(of["direct"]) == 2 and of["through"] == of["direct"]
    assert any("renamed" in key for key in keys)
