"""Where replay records live: a log of (cache key, record) in a few entries of the run's own counts.

MAF copies ``_step_cache_auto_request_info_counts`` whole at every checkpoint
(and on 1.18/1.19 rewrites every key), and ``InMemoryCheckpointStorage`` deep
copies it, so one dictionary entry per record would double that per-save cost,
which grows with the run. The records go instead into *chunks*: ints that
hold up to ``CHUNK_BYTES`` of entries each, under keys no step call can be
given (``steplint-replay:*<i>::-1`` on 1.18/1.19, an explicit key of
wrapper identity ``steplint-shim`` on 1.20+). A checkpoint copies a chunk per
36 or so records.

An entry is an 8-byte digest of the cache key's checkpoint text, a byte
counting the record's 32-bit slots, and the slots (``replay_digest``); a
later entry for the same key replaces an earlier one. A step call only
queues its record (``put``); the queue is written into the chunks by
``write``, which the shim calls just before MAF copies the counts (a
checkpoint's export, and the end of the workflow body, after which MAF
captures them for a response-only replay). A run that neither checkpoints nor
pauses never writes: MAF drops its cache. A chunk is kept under
4,300 decimal digits, CPython's limit for turning an int into the text JSON
needs (``FileCheckpointStorage``). Chunk 0 is there from a run's first
lookup on: a cache that carries it was made under verification.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from steplint.runtime_shim.framework import Framework
from steplint.runtime_shim.run_state import key_digest, run_state, run_state_of

RECORD_NAME = "steplint-replay"
CHUNK_BYTES = 1_600  # 8 bits a byte: about 3,850 decimal digits, under the 4,300 of int -> str
MAX_SLOTS = 254  # one byte counts them (record_call keeps records far shorter)
FORGOTTEN = 255  # the length byte of an entry that takes a key's record back


def chunk_keys(framework: Framework) -> Callable[[int], Any]:
    """chunk index -> its key in the counts."""
    return lambda index: framework.unallocatable_key(f"{RECORD_NAME}:*{index}", RECORD_NAME, f"*{index}")


class RecordLog:
    """One run's records: read from the counts it was restored with, appended to as its calls run."""

    __slots__ = ("counts", "chunk_key", "records", "chunk", "size", "index", "current_key", "restored", "queued")

    def __init__(self, counts: dict[Any, int], chunk_key: Callable[[int], Any]) -> None:
        self.counts = counts
        self.chunk_key = chunk_key
        self.records: dict[int, int] = {}
        self.queued: list[tuple[Any, int]] = []  # (key, record) put since the last write, in order
        self.restored = chunk_key(0) in counts  # the cache was made under verification
        self.index = 0
        data = b""
        while True:
            value = counts.get(chunk_key(self.index))
            if value is None:
                break
            data = _chunk_bytes(value)
            self._read(data)
            self.index += 1
        if self.index:
            self.index -= 1  # go on filling the last chunk
        # The chunk as the int it is stored as (a 1 byte, then the entries): appending is a shift and an or.
        self.chunk, self.size = int.from_bytes(b"\x01" + data, "big"), len(data)
        self.current_key = chunk_key(self.index)
        counts[self.current_key] = self.chunk

    def _read(self, data: bytes) -> None:
        at = 0
        while at + 9 <= len(data):
            digest = int.from_bytes(data[at:at + 8], "big")
            length = data[at + 8]
            if length == FORGOTTEN:
                self.records.pop(digest, None)
                at += 9
                continue
            slots = data[at + 9:at + 9 + 4 * length]
            self.records[digest] = int.from_bytes(b"\x01" + slots, "big")
            at += 9 + 4 * length

    def get(self, key: Any) -> int | None:
        if self.queued:
            self.write()
        return self.records.get(key_digest(key))

    def put(self, key: Any, record: int) -> None:
        self.queued.append((key, record))

    def forget(self, key: Any) -> None:
        """The key's record no longer describes its entry (the entry was moved aside)."""
        if self.queued:
            self.write()
        digest = key_digest(key)
        if self.records.pop(digest, None) is not None:
            self._append((digest << 8) | FORGOTTEN, 9)
            self.counts[self.current_key] = self.chunk

    def write(self) -> None:
        """Write the queued records into the chunks in the counts (MAF is about to copy them)."""
        queued, self.queued = self.queued, []
        for key, record in queued:
            digest = key_digest(key)
            if self.records.get(digest) == record:
                continue
            self.records[digest] = record
            length = (record.bit_length() - 1) // 32
            slot_bits = 32 * length
            self._append((((digest << 8) | length) << slot_bits) | (record & ((1 << slot_bits) - 1)), 9 + 4 * length)
        self.counts[self.current_key] = self.chunk

    def _append(self, entry: int, entry_bytes: int) -> None:
        if self.size + entry_bytes > CHUNK_BYTES and self.size:
            self.counts[self.current_key] = self.chunk
            self.index += 1
            self.chunk, self.size = 1, 0
            self.current_key = self.chunk_key(self.index)
        self.chunk = (self.chunk << (8 * entry_bytes)) | entry
        self.size += entry_bytes


def _chunk_bytes(value: int) -> bytes:
    value = int(value)
    data = value.to_bytes((value.bit_length() + 7) // 8, "big")
    return data[1:] if data[:1] == b"\x01" else b""


def write_queued(run_context: Any) -> None:
    """Write the run's queued records into its counts, if a later run can take them: MAF is about to copy the
    counts into a checkpoint (the run has a storage), or to keep them for a response-only replay (the run
    awaits a response)."""
    state = run_state_of(run_context)
    log = None if state is None else state.replay_log
    if (log is not None and log.queued and log.counts is run_context._step_cache_auto_request_info_counts
            and (run_context._on_step_completed is not None or run_context._pending_requests)):
        log.write()


def log_of(run_context: Any, chunk_key: Callable[[int], Any]) -> RecordLog:
    """The run's log, read from its counts at its first lookup."""
    state = run_state(run_context)
    log = state.replay_log
    if log is None or log.counts is not run_context._step_cache_auto_request_info_counts:
        log = state.replay_log = RecordLog(run_context._step_cache_auto_request_info_counts, chunk_key)
    return log
