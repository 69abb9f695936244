"""The replay fuzzer's second process (issue 27, item 6): resumes run here, with another hash seed.

``worker.resume(...)`` sends a program's resume to one long-lived child process
(started at its first use, so a fuzz run pays the start-up once), which was
started with another ``PYTHONHASHSEED`` than this process: a record whose form
follows the hash seed (a set of str pickled in iteration order) would read as
a mismatch there. The child resumes from the same ``FileCheckpointStorage``
directory under the same mode and policy and sends back the phase: its
exception by class and arguments, its trace without the run contexts (their
count after a collection instead).

Protocol: pickles over the child's stdin and a duplicate of its stdout (its
own stdout and stderr are the parent's stderr, so MAF's logging cannot
corrupt the stream).
"""

from __future__ import annotations

import atexit
import dataclasses
import gc
import importlib
import os
import pickle
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PROBE = "steplint-replay-fuzz-probe"


class RemoteError(Exception):
    """An exception of the child whose class could not be rebuilt here."""


def _rebuilt(error: tuple[str, str, tuple[Any, ...]] | None) -> BaseException | None:
    if error is None:
        return None
    module, name, args = error
    try:
        kind = getattr(importlib.import_module(module), name)
        rebuilt = kind.__new__(kind)
        rebuilt.args = args
        return rebuilt
    except Exception:
        return RemoteError(f"{module}.{name}", *args)


class Worker:
    """The child process, started on first use and stopped at exit."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._replies: Any = None
        self._lock = threading.Lock()
        self.hash_seed = ""

    def _start(self) -> None:
        for seed in ("4242", "97", "13"):  # another seed than this process's (checked by a probe)
            read, write = os.pipe()
            environment = {**os.environ, "PYTHONHASHSEED": seed, "REPLAY_FUZZ_REPLIES": str(write),
                           "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
            process = subprocess.Popen([sys.executable, "-c", "import replay_fuzz_worker; replay_fuzz_worker.serve()"],
                                       stdin=subprocess.PIPE, stdout=sys.stderr, env=environment, pass_fds=(write,))
            os.close(write)
            replies = os.fdopen(read, "rb")
            if pickle.load(replies) != hash(PROBE):
                self._process, self._replies, self.hash_seed = process, replies, seed
                atexit.register(self.stop)
                return
            process.stdin.close()  # type: ignore[union-attr]
            process.wait()
        raise AssertionError("no hash seed differs from this process's")

    def resume(self, program: Any, mode: str | None, policy: str, directory: str, checkpoint_id: str) -> Any:
        from replay_fuzz import Phase

        with self._lock:
            if self._process is None:
                self._start()
            assert self._process is not None and self._process.stdin is not None
            pickle.dump((program, mode, policy, directory, checkpoint_id), self._process.stdin)
            self._process.stdin.flush()
            reply = pickle.load(self._replies)
        outputs, error, trace, report, warned, unverified, alive = reply
        return Phase(outputs, _rebuilt(error), trace, report, warned, unverified, alive)

    def stop(self) -> None:
        if self._process is not None:
            self._process.stdin.close()  # type: ignore[union-attr]
            self._process.wait(timeout=60)
            self._replies.close()
            self._process = None


worker = Worker()


def _resume_here(program: Any, mode: str | None, policy: str, directory: str, checkpoint_id: str) -> tuple[Any, ...]:
    import asyncio

    import replay_fuzz

    from steplint import runtime_shim

    runtime_shim.uninstall()
    if mode is not None:
        runtime_shim.install(mode=mode, on_replay_mismatch=policy)  # type: ignore[arg-type]
    try:
        storage = replay_fuzz.make_storage(program.storage, directory)
        phase = asyncio.run(replay_fuzz.drive(storage, program.second, checkpoint_id=checkpoint_id,
                                              memo=program.memo))
    finally:
        runtime_shim.uninstall()
    gc.collect()
    trace = phase.trace
    alive = sum(reference() is not None for reference in trace.contexts)
    error = phase.error
    sent_error = None if error is None else (type(error).__module__, type(error).__qualname__, error.args)
    return (phase.outputs, sent_error, dataclasses.replace(trace, contexts=[]), phase.report, phase.warned,
            phase.unverified, alive)


def serve() -> None:
    """The child's loop: one resume per request, until stdin closes."""
    import logging
    import warnings

    warnings.simplefilter("ignore")
    logging.getLogger("agent_framework").setLevel(logging.ERROR)
    replies = os.fdopen(int(os.environ["REPLAY_FUZZ_REPLIES"]), "wb")
    pickle.dump(hash(PROBE), replies)
    replies.flush()
    requests = sys.stdin.buffer
    while True:
        try:
            request = pickle.load(requests)
        except EOFError:
            return
        pickle.dump(_resume_here(*request), replies)
        replies.flush()
