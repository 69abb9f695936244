"""Build summaries in a process pool: the one part of a run that parallelizes.

Parsing and summarizing are per file and CPU-bound; the index and the rules
need every summary and run once, in the parent. Summaries are plain
picklable data, so a worker sends them back as they are. Small batches stay
in-process: a pool costs tens of milliseconds to start, more than
summarizing a handful of files.
"""

from __future__ import annotations

import copyreg
import dataclasses
import operator
import os
import sys
from typing import TYPE_CHECKING, Callable, Iterator, TypeVar

from steplint.core import diagnostics, summary

if TYPE_CHECKING:  # imported when a pool starts: a run that needs none (a few files, a replay) saves 13 ms
    import multiprocessing.context
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")
Item = TypeVar("Item")  # what one call of the work is given: a path, or a path with the bytes already read

# Below this many files per worker, starting the pool costs more than it saves.
MIN_FILES_PER_WORKER = 16


def default_jobs() -> int:
    try:
        return max(len(os.sched_getaffinity(0)), 1)  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def workers_for(files: int, jobs: int) -> int:
    """How many processes to use for ``files`` files with at most ``jobs``: 1 means in-process."""
    return max(1, min(jobs, files // MIN_FILES_PER_WORKER))


def map_files(work: Callable[[str], T], paths: list[str], jobs: int) -> list[T]:
    """``work(path)`` for every path, in order, in up to ``jobs`` processes (``work`` must be picklable)."""
    with WorkerPool(jobs) as pool:
        return pool.map(work, paths)


class WorkerPool:
    """Worker processes started on the first batch large enough to need them and kept for the run.

    ``map`` counts this process as one of ``jobs``: the batch is cut into
    chunks queued for the workers, and this process takes chunks from the end
    of the queue that no worker has started, so the two ends meet wherever the
    load on the machine puts them. ``map_shares`` leaves this process out, so
    it needs ``jobs`` workers. The first pool has as many workers as its batch
    may use (``jobs`` for a large one), not one fewer: a fork copies this
    process's memory into the child's resident set, and a pool made for the
    shares after the reading would start each worker with every file's bytes
    the reading kept here (on agent-framework's tree, 20-25 MB more at each
    worker's peak).
    """

    def __init__(self, jobs: int):
        self.jobs = jobs
        self._executor: ProcessPoolExecutor | None = None
        self._workers = 0

    def runs_here(self, count: int) -> bool:
        """Whether ``map`` would run a batch of ``count`` items in this process, without workers."""
        return workers_for(count, self.jobs) <= 1 and self._executor is None

    def map(self, work: Callable[[Item], T], paths: list[Item]) -> list[T]:
        if self.runs_here(len(paths)):
            return [work(path) for path in paths]
        workers = workers_for(len(paths), self.jobs)
        executor = self._with_workers(workers if self._executor is None else max(1, workers - 1))
        # Chunks of a few dozen files keep the pipes busy without starving a worker at the end.
        size = max(1, min(64, len(paths) // (self.jobs * 8)))
        chunks = [paths[start : start + size] for start in range(0, len(paths), size)]
        queued = [executor.submit(_work_through, work, chunk) for chunk in chunks]
        done_here: dict[int, list[T]] = {}
        for index in reversed(range(len(chunks))):
            if not queued[index].cancel():  # a worker has it: the rest are theirs too
                break
            done_here[index] = _work_through(work, chunks[index])
        results: list[T] = []
        for index, future in enumerate(queued):
            results.extend(done_here[index] if index in done_here else future.result())
        return results

    def map_shares(self, work: Callable[[Item], T], shares: list[Item]) -> Iterator[T]:
        """``work(share)`` for each share of a batch ``map`` would run in the pool, in order, as each is done."""
        return self._with_workers(self.jobs).map(work, shares)

    def _with_workers(self, workers: int) -> ProcessPoolExecutor:
        """The pool, with at least ``workers`` processes."""
        if self._executor is not None and self._workers < workers:
            self.close()
        if self._executor is None:
            from concurrent.futures import ProcessPoolExecutor

            self._executor = ProcessPoolExecutor(max_workers=workers, mp_context=_context())
            self._workers = workers
        return self._executor

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown()
            self._executor = None
            self._workers = 0

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _work_through(work: Callable[[Item], T], paths: list[Item]) -> list[T]:
    return [work(path) for path in paths]


def _context() -> multiprocessing.context.BaseContext:
    import multiprocessing

    # fork starts in milliseconds and shares the already imported steplint; macOS and
    # Windows need spawn (fork is unsafe or missing there).
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _pickle_by_constructor() -> None:
    """Pickle summaries and findings as ``Cls(*fields)``.

    A slots dataclass's own ``__getstate__`` calls ``dataclasses.fields()`` for
    every object, which made pickling a third of a cold run; an ``attrgetter``
    reads the fields in C. Classes with fields ``__init__`` does not take keep
    the default.
    """
    classes = [(cls, module) for module in (summary, diagnostics) for cls in vars(module).values()]
    for cls, module in classes:
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__):
            continue
        fields = dataclasses.fields(cls)
        if not all(f.init for f in fields):
            continue
        names = tuple(f.name for f in fields)
        read = operator.attrgetter(*names)
        if len(names) == 1:
            copyreg.pickle(cls, lambda obj, cls=cls, read=read: (cls, (read(obj),)))
        else:
            copyreg.pickle(cls, lambda obj, cls=cls, read=read: (cls, read(obj)))


_pickle_by_constructor()
