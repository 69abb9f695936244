"""Keep Python's cyclic garbage collector out of building summaries, and out of the editor's wait.

Summaries, their syntax trees and their pickles hold no reference cycles
(``tests/test_summary_objects.py`` checks it), so reference counting frees
them. The collector would still scan every object they create: measured at
about 3 s of a synth run's 8 s of worker CPU. The language server collects
between lints (``IdleCollection``).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:  # a command-line run never needs asyncio (40 ms to import)
    import asyncio


@contextmanager
def paused() -> Iterator[None]:
    """No automatic collection inside the block (nested blocks are fine)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# A batch run allocates millions of long-lived objects (summaries, the analysis' value sets); at the default
# thresholds (700, 10, 10) the collector rescans them over and over: about 30% of a synth run's CPU. Cycles
# are still collected, only less often.
BATCH_THRESHOLDS = (100_000, 50, 1_000)


def use_batch_thresholds() -> None:
    """Collect less often for the rest of this process (a worker, or a command-line run)."""
    gc.set_threshold(*BATCH_THRESHOLDS)


@contextmanager
def batch_thresholds() -> Iterator[None]:
    """Collect less often inside the block; worker processes forked inside it keep the setting."""
    before = gc.get_threshold()
    use_batch_thresholds()
    try:
        yield
    finally:
        gc.set_threshold(*before)


def settle() -> None:
    """Move every object alive now out of the collector's sight: they live for the rest of the run."""
    gc.freeze()


def leave_to_exit() -> None:
    """A process that only reports and exits now: what it made is never scanned again.

    The reference cycles a run leaves (the analysis' sessions and units: 760k objects on agent-framework)
    would otherwise be scanned and freed by the collection at interpreter exit (0.8 s there), a moment
    before the operating system frees the whole process. Their objects hold no open files.
    """
    gc.freeze()


class IdleCollection:
    """The collector for a process that works in bursts with pauses between them (the language server).

    Inside a burst (``busy`` to ``done``) it collects as rarely as a batch run does, so a lint's new
    summary and analysis are not scanned while the editor waits for its diagnostics; ``delay`` seconds
    after the last burst ends, the usual thresholds come back and the young generation is collected (the
    analysis's sessions and units refer to each other, so only the collector frees them). A burst that
    starts meanwhile puts the collection off again; bursts may overlap.
    """

    def __init__(self, delay: float):
        self.delay = delay
        self._active = 0
        self._saved: tuple[int, int, int] | None = None
        self._timer: asyncio.TimerHandle | None = None

    def busy(self) -> None:
        """A burst starts: no collection is due until it ends."""
        self._active += 1
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._saved is None:
            self._saved = gc.get_threshold()
            use_batch_thresholds()

    def done(self) -> None:
        """A burst ends (in the event loop's thread): the collection is due ``delay`` seconds after the last."""
        import asyncio

        self._active -= 1
        if self._active == 0:
            self._timer = asyncio.get_running_loop().call_later(self.delay, self._collect)

    def _collect(self) -> None:
        """The pause lasted: the usual thresholds, and the young generation collected."""
        self._timer = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None
        gc.collect(0)
