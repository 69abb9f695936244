"""Reported modules summarized and checked in the worker processes, a share each.

A module's findings depend only on its own text and on the modules its names
resolve into (``steplint.run.findings_store``), so a worker can check its share with
an index of its own: the modules they import load through the same loader,
with the same precedence, as in one process. The parent then only concludes
(suppression, STP100, one finding per place) over every module's findings,
and never builds the summaries' objects itself.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from steplint.core import gc_pause as collector
from steplint.run.cache import Cache, content_hash
from steplint.config.settings import Settings
from steplint.core.findings import ModuleFindings
from steplint.core.summary import ModuleSummary
from steplint.run.checking import Checking, Resolution
from steplint.run.source_reads import Scanned
from steplint.run.summary_cache import load_summary, store_summary
from steplint.source.module_identity import module_of
from steplint.source.reading import read_source
from steplint.summaries.file_summary import read_and_summarize, summarize_source
from steplint.summaries.stored import pickled_summary


@dataclass(frozen=True)
class SharedRun:
    """What every worker needs to check its share exactly as one process would."""

    run_id: str  # a worker keeps its index for the shares of one run
    settings: Settings
    roots: tuple[str, ...]
    run_files: dict[str, list[str]]  # every file of the run by module name, in discovery order
    cache: Cache | None
    search_roots: tuple[str, ...] = ()  # where namespace packages are looked for


@dataclass
class ShareFindings:
    modules: list[tuple[str, str | None, bool, ModuleFindings]]  # path, content hash, summary stored, findings
    resolution: Resolution  # what resolution asked for, loaded and consulted since the last share
    summarized: int  # files parsed and summarized (the others' summaries were stored)
    parsed: dict[str, str | None]  # summaries without an error since the last share: absolute path -> content hash


class _Checker:
    def __init__(self, run: SharedRun):
        self.run = run
        self.summarized = 0
        self.checking = Checking(run.settings, roots=list(run.roots), discovered=run.run_files,
                                 search_roots=list(run.search_roots), summarize=self.summary)
        self.origins: dict[str, tuple[str | None, bool]] = {}  # absolute path -> content hash, summary stored
        self.parsed: dict[str, str | None] = {}
        self.scanned: dict[str, Scanned] = {}  # absolute path -> the bytes the parent's scan read, until summarized

    def check(self, share: list[str]) -> ShareFindings:
        collector.use_batch_thresholds()  # also under spawn, where the parent's setting is not inherited
        collector.settle()  # the summaries and memos of earlier shares stay for the whole run
        checked = []
        for path in share:
            _, findings = self.checking.check(path)
            digest, stored = self.origins.get(os.path.abspath(path), (None, False))
            checked.append((path, digest, stored, findings))
        found = ShareFindings(checked, self.checking.take_resolution(), self.summarized, self.parsed)
        self.summarized, self.parsed = 0, {}
        return found

    def summary(self, path: str) -> ModuleSummary:
        """The stored summary of these bytes as this module, else one made now (and stored)."""
        digest, stored, summary = self._summary(path)
        self.origins[os.path.abspath(path)] = (digest, stored)
        if summary.error is None:
            self.parsed[os.path.abspath(path)] = digest
        return summary

    def _summary(self, path: str) -> tuple[str | None, bool, ModuleSummary]:
        max_size = self.run.settings.max_file_size
        cache = self.run.cache
        scanned = self.scanned.pop(os.path.abspath(path), None)
        if scanned is None:
            try:
                data = read_source(path, max_size)
            except Exception:  # unreadable: the summary says why (STP900)
                self.summarized += 1
                return None, False, read_and_summarize(path, max_size)[1]
            scanned = Scanned(data, content_hash(data))
        digest = scanned.digest
        stored = load_summary(cache, digest, *module_of(path), path)
        if stored is not None:
            return digest, True, stored
        self.summarized += 1
        summary = summarize_source(scanned.data, path)
        saved = cache is not None and store_summary(cache, digest, summary, pickled_summary(summary))
        return digest, saved, summary


_checker: _Checker | None = None


def check_share(share: list[str], run: SharedRun, scanned: dict[str, Scanned] | None = None) -> ShareFindings:
    """A worker's answer for its share of the reported modules (its index is kept for the run's other shares).

    ``scanned``: the bytes the parent's scans read, by path; the other files are read here.
    """
    global _checker
    if _checker is None or _checker.run.run_id != run.run_id:
        _checker = _Checker(run)
    _checker.scanned.update((os.path.abspath(path), read) for path, read in (scanned or {}).items())
    return _checker.check(share)


def check_scanned_share(share: tuple[list[str], dict[str, Scanned]], run: SharedRun) -> ShareFindings:
    """``check_share`` for a share sent with its bytes, as the pool's one argument."""
    paths, scanned = share
    return check_share(paths, run, scanned)
