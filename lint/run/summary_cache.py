"""Summaries in and out of the cache, by content hash and module identity: the one path the pipeline and workers share."""

from __future__ import annotations

from steplint.core.summary import ModuleSummary
from steplint.run.cache import Cache, summary_key
from steplint.summaries.stored import unpickled_summary


def load_summary(cache: Cache | None, digest: str, module: str, is_package: bool, path: str) -> ModuleSummary | None:
    """The stored summary of bytes with ``digest`` read as ``module``, standing for the file at ``path``; None if none loads."""
    if cache is None:
        return None
    return unpickled_summary(cache.load_summary(summary_key(digest, module, is_package)), path)


def store_summary(cache: Cache, digest: str | None, summary: ModuleSummary, blob: bytes) -> bool:
    """Store a summary made from bytes with ``digest``; False when it is not stored.

    Only clean summaries are stored: a broken file is cheap to read again, and
    its error may come from this run's circumstances (memory, recursion) rather
    than its bytes.
    """
    if digest is None or summary.error is not None:
        return False
    return cache.save_summary(summary_key(digest, summary.module, summary.is_package), blob)
