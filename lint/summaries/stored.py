"""The one way a summary becomes bytes and comes back: for the worker pipe and for the cache alike."""

from __future__ import annotations

import pickle

from steplint.core import gc_pause
from steplint.core.deep_stack import call_deep
from steplint.core.summary import ModuleSummary


def pickled_summary(summary: ModuleSummary) -> bytes:
    try:
        return pickle.dumps(summary, pickle.HIGHEST_PROTOCOL)
    except RecursionError:  # expressions nested past the default limit (``f()()()...``, ``A | B | ...``)
        return call_deep(pickle.dumps, summary, pickle.HIGHEST_PROTOCOL)


def unpickled_summary(blob: bytes | None, path: str) -> ModuleSummary | None:
    """The summary ``blob`` holds, as the file at ``path``; None when there is none or it does not load.

    A blob that does not load is made again, never trusted; the cyclic garbage
    collector is paused meanwhile (summaries hold no cycles, ``gc_pause``).
    """
    if blob is None:
        return None
    try:
        with gc_pause.paused():
            summary: ModuleSummary = pickle.loads(blob)
    except Exception:
        return None
    if not isinstance(summary, ModuleSummary):
        return None
    summary.path = path
    return summary
