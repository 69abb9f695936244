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


def settle() -> None:
    """Move every object alive now out of the collector's sight: they live for the rest of the run."""
    gc.freeze()
