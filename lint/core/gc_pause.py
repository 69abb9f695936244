"""Keep Python's cyclic garbage collector out of building summaries.

Summaries, their syntax trees and their pickles hold no reference cycles
(``tests/test_summary_objects.py`` checks it), so reference counting frees
them. The collector would still scan every object they create: measured at
about 3 s of a synth run's 8 s of worker CPU.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


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
