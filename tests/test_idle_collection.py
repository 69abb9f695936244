"""The language server's collector: nothing collected while a lint runs, the young generation once it is idle."""

from __future__ import annotations

import asyncio
import gc
import weakref

from steplint.core.gc_pause import BATCH_THRESHOLDS, IdleCollection


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def _garbage_cycle() -> weakref.ref:
    """A cycle nothing refers to: only the collector frees it."""
    return weakref.ref(_Cycle())


def test_a_burst_collects_rarely_and_the_pause_after_it_collects():
    before = gc.get_threshold()

    async def session() -> None:
        collection = IdleCollection(0.02)
        collection.busy()
        assert gc.get_threshold() == BATCH_THRESHOLDS
        cycle = _garbage_cycle()
        collection.busy()  # a second lint overlaps the first
        collection.done()
        await asyncio.sleep(0.05)
        assert gc.get_threshold() == BATCH_THRESHOLDS and cycle() is not None  # one lint still runs
        collection.done()
        assert cycle() is not None  # not yet: the editor may be waiting for diagnostics
        await asyncio.sleep(0.1)
        assert gc.get_threshold() == before and cycle() is None

    asyncio.run(session())
    assert gc.get_threshold() == before


def test_a_lint_that_starts_during_the_pause_puts_the_collection_off():
    before = gc.get_threshold()

    async def session() -> None:
        collection = IdleCollection(0.05)
        collection.busy()
        cycle = _garbage_cycle()
        collection.done()
        await asyncio.sleep(0.01)
        collection.busy()  # the next lint starts before the collection was due
        await asyncio.sleep(0.1)
        assert gc.get_threshold() == BATCH_THRESHOLDS and cycle() is not None
        collection.done()
        await asyncio.sleep(0.15)
        assert gc.get_threshold() == before and cycle() is None

    asyncio.run(session())
