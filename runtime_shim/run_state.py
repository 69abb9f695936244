"""What scoped mode knows about one workflow run: whether the entries it was restored with are its own.

A checkpoint made by scoped mode holds nested calls under scoped keys and
can be trusted whole; one made by MAF alone may hold nested calls under plain
call-order keys, which a top-level call must never be handed (a *legacy
replay*, ``legacy_replay``). The shim tells them apart by a record it writes
into the run's own state, never by the shape of keys (a step may well be
named ``deploy@3f2a9c1b4d5e6f70``):

* the record is an entry of ``_step_cache_auto_request_info_counts`` under a
  key no step call can be given (``steplint-shim::-1`` on 1.18/1.19, whose
  counters never go below 0; on 1.20+ an explicit key whose wrapper identity
  is ``steplint-shim``, where MAF writes a SHA-256 digest). MAF alone restores
  it with the rest and never looks it up, so a checkpoint carrying it resumes
  without the shim exactly as one without it;
* its value is a digest of the run's cache keys (an XOR of per-key digests,
  kept up to date as entries are set or dropped), so a checkpoint that MAF
  alone later extended (the shim uninstalled, then installed again) no
  longer matches and is replayed as a legacy one;
* it lives in the run's live dictionary, so every path by which MAF saves or
  restores a cache carries it: checkpoints, and the response-only replay of a
  paused run, which copies the dictionaries without ``_import_step_cache``.

A run is judged at its first step call, whatever restored its cache. It
writes the record once it has nested (a run without nesting keeps MAF's
checkpoints byte for byte) or when it was restored from a checkpoint that had
one; a legacy replay writes it once it has nested, and its checkpoints leave
out the restored entries no top-level call has claimed (the run itself keeps
them for its calls to claim).
"""

from __future__ import annotations

import functools
import zlib
from types import MethodType
from typing import Any, Callable

from steplint.runtime_shim.frames import current_step_frame, key_text, place_text
from steplint.runtime_shim.framework import Framework, takes_replayable
from steplint.runtime_shim.legacy_replay import LegacyReplay, positional_keys
from steplint.runtime_shim.resumability import resumable

STATE_ATTRIBUTE = "_steplint_run_state"
#: The record the log keeps for an abandoned attempt's place (a record of one empty slot: no call has it).
ABANDONED = 1 << 32
MARKER_NAME = "steplint-shim"


def marker_key(framework: Framework) -> Any:
    """The live key of the shim's record."""
    return framework.unallocatable_key(MARKER_NAME, MARKER_NAME, "cache")


def key_digest(key: Any) -> int:
    """A 62-bit digest of a cache key's checkpoint text (an int: the record's dictionary holds ints).

    Two CRC-32s with different seeds: stable across processes (unlike ``hash``) and cheap, which matters
    because it runs once per step call of a run that nested. It tells an extended cache from the one the
    record was written for; it is no defence against keys chosen to collide, which only MAF's code makes.
    """
    data = (key if isinstance(key, str) else key_text(key)).encode("utf-8", "surrogatepass")
    return (zlib.crc32(data) << 30) ^ zlib.crc32(data, 0x9383)


def abandoned_key(stem: tuple[Any, ...], occurrence: int) -> str:
    """The log's key for an abandoned attempt (no cache key starts so)."""
    return f"steplint-abandoned:{place_text(stem, occurrence)}"


def cache_digest(keys: Any) -> int:
    digest = 0
    for key in keys:
        digest ^= key_digest(key)
    return digest


class RunState:
    """Everything the shim knows about one run, kept on its RunContext (and gone with it).

    Scoped mode's judgement of the restored cache: the digest of the cache keys
    is kept only while the run writes the record (``marked``), and folded in
    lazily: a step call only notes its new key, and the digest is brought up to
    date when a checkpoint is made or the run is interrupted (the two moments
    MAF copies the dictionaries). A flat run has no marker and never marks.

    Replay verification's (``replay_check``), in either mode: the record log,
    the entries a "rerun" mismatch kept for their own call, whether the cache
    was made under verification and whether the run already said it was not.
    """

    __slots__ = ("judged", "bypass", "marker", "digest", "pending", "legacy", "marked",
                 "replay_log", "replay_stash", "cache_recorded", "unverified_said", "restored_keys", "orphans", "resumable", "places",
                 "free_places", "failed_places", "answers_stranded")

    def __init__(self) -> None:
        self.judged = False  # scoped mode judged the restored cache (at the run's first step call)
        self.bypass = False  # scoped mode: no later run can take this run's cache, so its calls run on MAF's code
        self.marker: Any = None
        self.digest: int | None = None  # of the keys in the run's step cache (but pending ones), while marked
        self.pending: list[Any] = []  # keys set since the digest was last brought up to date
        self.legacy: LegacyReplay | None = None  # restored entries that may be another call's, until the run nests
        self.marked = False  # whether the run's checkpoints carry the record
        self.replay_log: Any = None  # replay_records.RecordLog, read at the run's first lookup
        self.replay_stash: dict[int, list[tuple[Any, int]]] = {}  # record -> (value, count) kept by "rerun"
        self.cache_recorded: bool | None = None  # judged at the first lookup: the cache was made under verification
        self.unverified_said = False  # the run warned that it took an unrecorded entry
        self.restored_keys: list[Any] | None = None  # the cache's keys at the run's first lookup (memo_adoption)
        self.orphans: Any = None  # memo_adoption.Orphans, made at the first call that may adopt
        self.resumable: bool | None = None  # whether a later run can take its cache (resumability), once judged
        self.places: dict[tuple[Any, ...], int] = {}  # a call's place but its occurrence -> the calls there so far
        self.free_places: dict[tuple[Any, ...], list[int]] = {}  # the same -> failed attempts that made no nested call
        self.failed_places: dict[tuple[Any, ...], list[int]] = {}  # the same -> failed attempts that made some
        self.answers_stranded: dict[int, list[str]] = {}  # request record -> auto ids whose answer is kept for it

    def place_of(self, frame: Any, what: Any) -> tuple[tuple[Any, ...], int]:
        """The frame's place: its parent's token (or the workflow body), its step, *what* it is (its record or
        identity) and its occurrence among such calls of that parent. The run's record log is read already.

        A failed attempt (its body raised) that made no nested call left its scope untouched, so the next equal
        call (a retry) takes its place: the attempt that completes gets the same place in every run, however
        many attempts failed first. One that made nested calls advanced its scope's counters, so a retry there
        would meet them: it is *abandoned* once the next equal call starts, in the log, and every later run of
        the cache skips its occurrence. Two equal calls that race (one fails before the other starts) are told
        apart by nothing but their order: the later may take the earlier's place."""
        parent = frame.parent
        stem = (None if parent is None else parent.scope(), frame.step_name, what)
        log = self.replay_log
        if self.free_places:  # (a test of the dictionaries first: they are empty but where bodies raised)
            free = self.free_places.get(stem)
            if free:
                return stem, free.pop(0)
        if self.failed_places:
            failed = self.failed_places.pop(stem, None)
            if failed:
                for occurrence in failed:
                    log.put(abandoned_key(stem, occurrence), ABANDONED)
        occurrence = self.places.get(stem, 0)
        if log.restored:
            while log.get(abandoned_key(stem, occurrence)) is not None:
                occurrence += 1
        self.places[stem] = occurrence + 1
        return stem, occurrence

    def note_failed(self, frame: Any) -> None:
        """The body of the call at *frame.place* raised: if its parent calls the same again, this was an attempt."""
        stem, occurrence = frame.place
        kept = self.failed_places if frame.made_nested_calls() else self.free_places
        kept.setdefault(stem, []).append(occurrence)

    def mark(self, run_context: Any) -> None:
        self.marked = True
        self.digest = cache_digest(run_context._step_cache)
        self.pending.clear()
        self.refresh(run_context)

    def current_digest(self) -> int | None:
        if self.pending and self.digest is not None:
            digest = self.digest
            for key in self.pending:
                digest ^= key_digest(key)
            self.digest = digest
            self.pending.clear()
        return self.digest

    def refresh(self, run_context: Any) -> None:
        """Write the record into the live dictionary, up to date (MAF is about to copy it): a digest of the keys
        a checkpoint holds, so the entries a legacy replay withholds are left out of it."""
        if self.marked:
            digest = self.current_digest()
            for key in self.withheld_keys(run_context):
                digest ^= key_digest(key)  # type: ignore[operator]
            run_context._step_cache_auto_request_info_counts[self.marker] = digest

    def withheld_keys(self, run_context: Any) -> list[Any]:
        """Restored entries of an ended legacy replay that no top-level call has claimed yet: they stay in the
        run's cache for a call of this run to claim, and out of its checkpoints (they may be nested calls')."""
        legacy = self.legacy
        if legacy is None or not legacy.ended:
            return []
        cache = run_context._step_cache
        return [key for key in legacy.unclaimed if key in cache]

    def drop(self, run_context: Any, key: Any) -> None:
        if key in run_context._step_cache:
            del run_context._step_cache[key]
            if self.current_digest() is not None:
                self.digest ^= key_digest(key)
        run_context._step_cache_auto_request_info_counts.pop(key, None)

    def nested(self, run_context: Any) -> None:
        """The run allocated a nested key: from now on its checkpoints say they are the shim's."""
        if self.legacy is not None:
            self.legacy.nested = True
        elif not self.marked:
            self.mark(run_context)

    def release_withheld(self, run_context: Any, copied_at_every_end: bool = True) -> None:
        """The body returned, raised or paused: what it withheld no call of it can claim any more, and MAF may now
        copy the live cache whole (a response-only replay on 1.18/1.19 copies it without an export).
        *copied_at_every_end*: the release copies the cache after every return of the body (1.18, for a later
        ``run(responses=...)`` while an earlier pause's requests are still pending); elsewhere it is copied for a
        replay only with the requests this run left pending, or into a checkpoint."""
        for key in self.withheld_keys(run_context):
            self.drop(run_context, key)
        if copied_at_every_end or run_context._on_step_completed is not None or run_context._pending_requests:
            self.refresh(run_context)  # else nothing copies the record: MAF drops a cache no later run can take

    def end_legacy_replay(self, run_context: Any) -> None:
        """Before a checkpoint is written by a legacy replay that has nested: from now on its checkpoints carry the
        record and leave out what no top-level call has claimed (``withheld_keys``). The run itself goes on
        settling those entries as before: a gathered call that asks for its entry after the first nested call
        still gets it, where MAF alone would give it."""
        if self.legacy is None or not self.legacy.nested or self.legacy.ended:
            return
        self.legacy.ended = True
        self.mark(run_context)


# The state is an ordinary attribute of the RunContext, set and read as such: reading the instance's __dict__
# would make CPython turn its inline attribute values into a real dictionary, which slows every attribute MAF
# reads on the context afterwards (3.4k instructions per step call on 1.19, bench/shim_instructions.py).
def run_state_of(run_context: Any) -> RunState | None:
    return getattr(run_context, STATE_ATTRIBUTE, None)


def run_state(run_context: Any) -> RunState:
    """The run's state (a run made before install() gets one only if the shim is asked about it)."""
    state = getattr(run_context, STATE_ATTRIBUTE, None)
    if state is None:
        state = RunState()
        setattr(run_context, STATE_ATTRIBUTE, state)
    return state


def starting_run(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``RunContext.__init__``: a run made while the shim is installed is the shim's from start to end; one
    made before stays on MAF's code (``step_calls`` passes its calls straight to MAF)."""

    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        setattr(self, STATE_ATTRIBUTE, RunState())

    return __init__


def begin_run(run_context: Any, marker: Any, positional: Callable[[Any], bool], mark_at_once: bool,
              maf_methods: dict[str, Callable[..., Any]] | None = None) -> RunState:
    """Judge the run from the cache it holds at its first step call (once per run). A run that no later run can
    resume (``resumability``) is left to MAF (``bypass``): *maf_methods* (name -> MAF's function) are bound on the
    run's context, so the shim's hooks of RunContext are not even entered for its calls. With *mark_at_once* (replay verification on: its
    checkpoints are not MAF's byte for byte anyway) the record is written from the run's first checkpoint, so
    its own checkpoints before it nests are never taken for MAF's."""
    state = run_state(run_context)
    if state.judged:
        return state
    state.judged = True
    if not resumable(run_context, state):
        # Keys matter only to a later run that takes this run's cache, and none can (``resumability``): the
        # run's calls go straight to MAF's code, as in a run that started before install(). Should code the
        # shim cannot see pause it all the same, its response-only replay is a legacy replay (no record).
        state.bypass = True
        for name, function in (maf_methods or {}).items():  # MAF's own methods, for this run only: no hook runs
            setattr(run_context, name, MethodType(function, run_context))
        return state
    state.marker = marker
    cache = run_context._step_cache
    recorded = run_context._step_cache_auto_request_info_counts.pop(marker, None)  # written again once marked
    digest = cache_digest(cache) if recorded is not None else None
    if not cache or (digest is not None and recorded == digest):
        state.marked = digest is not None and bool(cache)
        state.digest = digest if state.marked else None
        if mark_at_once and not state.marked:
            state.mark(run_context)
    else:
        candidates = [key for key in cache if positional(key)]
        state.legacy = LegacyReplay(candidates) if candidates else None
        if state.legacy is None and mark_at_once:
            state.mark(run_context)
    state.refresh(run_context)
    return state


def exporting_step_cache(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``RunContext._export_step_cache``: a legacy replay that has nested ends before the checkpoint is made."""

    @functools.wraps(original)
    def _export_step_cache(self: Any) -> Any:
        state = run_state_of(self)
        if state is None:
            return original(self)
        state.end_legacy_replay(self)
        state.refresh(self)  # the counts are exported next, record included
        withheld = state.withheld_keys(self)
        if not withheld:
            return original(self)
        cache = self._step_cache
        kept = {key: cache.pop(key) for key in withheld}
        try:
            return original(self)
        finally:
            cache.update(kept)

    return _export_step_cache


def ending_body(original: Callable[..., Any], copied_at_every_end: bool = True) -> Callable[..., Any]:
    """Wrap ``FunctionalWorkflow._execute`` (the workflow body): once it returns, raises or pauses, the entries a
    legacy replay withheld from its checkpoints go (``RunState.release_withheld``), so the cache MAF keeps for a
    response-only replay matches its record."""

    @functools.wraps(original)
    async def _execute(self: Any, ctx: Any, message: Any) -> Any:
        try:
            return await original(self, ctx, message)
        finally:
            state = run_state_of(ctx)
            if state is not None:
                state.release_withheld(ctx, copied_at_every_end)

    return _execute


def copies_cache_at_every_end(functional_workflow: type) -> bool:
    """Whether the release copies a run's cache for a response-only replay after every return of its body: 1.18
    does, inline in ``_run_core``; from 1.19 ``_capture_replay_state`` copies it together with the requests the
    run left pending (so a run that left none cannot be replayed)."""
    return not callable(getattr(functional_workflow, "_capture_replay_state", None))


def setting_cached_result(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``RunContext._set_cached_result`` (MAF's only writer of entries): keep the digest and record current,
    and note that the call's body returned (a task it left running scopes its calls apart: ``memo_adoption``).
    With replay verification, ``replay_check.recording_result`` does the same in its own hook instead (one hook
    per step call): a change here belongs there too."""

    keyword = takes_replayable(original)

    @functools.wraps(original)
    def _set_cached_result(self: Any, key: Any, value: Any, *, replayable: bool = True) -> None:
        state = run_state_of(self)
        if state is not None and state.digest is not None and key not in self._step_cache:
            state.pending.append(key)
        if keyword:
            original(self, key, value, replayable=replayable)
        else:
            original(self, key, value)
        frame = current_step_frame.get()
        if frame is not None and frame.key == key and frame.run_context is self:
            frame.returned = True

    return _set_cached_result


def requesting_info(original: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap ``RunContext.request_info``: a pause (its exception) is when MAF copies the dictionaries for a
    response-only replay, so the record is brought up to date first."""

    @functools.wraps(original)
    async def request_info(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return await original(self, *args, **kwargs)
        except BaseException:
            state = run_state_of(self)
            if state is not None:
                state.refresh(self)
            raise

    return request_info


def run_state_hooks(framework: Framework, result_hook: bool = True) -> dict[str, Callable[..., Any]]:
    """RunContext attribute -> replacement, for scoped mode's judgement of restored caches. Without *result_hook*
    replay verification's own hook of ``_set_cached_result`` does what ``setting_cached_result`` would."""
    run_context = framework.run_context
    hooks = {
        "_export_step_cache": exporting_step_cache(framework.original(run_context, "_export_step_cache")),
        "request_info": requesting_info(framework.original(run_context, "request_info")),
    }
    if result_hook:
        hooks["_set_cached_result"] = setting_cached_result(framework.original(run_context, "_set_cached_result"))
    return hooks


def run_starter(framework: Framework, mark_at_once: bool,
                maf_methods: dict[str, Callable[..., Any]] | None = None) -> Callable[[Any], None]:
    """``start(run_context)``: judge the run (at its first step call). *maf_methods*: RunContext's methods the shim
    hooks, as MAF defines them (filled in once the shim is installed), for the runs left to MAF."""
    marker = marker_key(framework)
    positional = positional_keys(framework)

    def start(run_context: Any) -> None:
        begin_run(run_context, marker, positional, mark_at_once, maf_methods)

    return start
