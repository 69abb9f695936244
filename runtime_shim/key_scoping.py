"""Parent-scoped cache keys for nested steps (scoped mode).

MAF allocates keys with per-name (and, on 1.20+, per-argument-identity)
counters on the RunContext. A cache hit of a parent step skips its body, so
the counters of the steps inside it do not advance and every later call of
those steps gets another call's key. Scoping fixes this the way LangGraph
scopes task ids: a nested call's counter is keyed by its parent call's key,
so it counts only the calls made inside that one parent call.

The patched allocators do this by handing MAF's own allocator a scoped name
(``"tick@<parent scope>"``) or a scoped argument identity
(``"<sha256>@<parent scope>"``). MAF then keeps the per-parent counters in its
own per-run dictionaries (nothing global, nothing left after the run) and
formats the key exactly as it formats any other key, so the release's own
checkpoint validation accepts it. A top-level call (no parent frame) reaches
MAF's allocator with the arguments unchanged: its key is byte-identical to
MAF's. Explicit ``replay_key=`` keys are never rewritten, only recorded so
that their children can be scoped by them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from steplint.runtime_shim.errors import UnsupportedFrameworkError
from steplint.runtime_shim.frames import SCOPE_SEPARATOR, current_step_frame, key_text
from steplint.runtime_shim.framework import COUNTER, Framework, positional_names
from steplint.runtime_shim.run_state import marker_key

Allocator = Callable[..., Any]
# Rewrites an allocator's arguments (after self) to scope them by a parent scope token.
ArgumentScoper = Callable[[tuple[Any, ...], str], tuple[Any, ...]]


def scope_step_name(arguments: tuple[Any, ...], scope: str) -> tuple[Any, ...]:
    """``(step_name,)`` -> ``("step_name@scope",)``: scopes call-order keys."""
    return (f"{arguments[0]}{SCOPE_SEPARATOR}{scope}", *arguments[1:])


def scope_identity(arguments: tuple[Any, ...], scope: str) -> tuple[Any, ...]:
    """``(name, wrapper_identity, identity)`` -> identity scoped: scopes fingerprint-occurrence keys."""
    step_name, wrapper_identity, identity = arguments
    return (step_name, wrapper_identity, f"{identity}{SCOPE_SEPARATOR}{scope}")


def _allocate_in_frame(original: Allocator, scoper: ArgumentScoper | None, run_context: Any, frame: Any,
                       arguments: tuple[Any, ...]) -> Any:
    """The key of the call *frame* is allocating one for (the last key allocated for a call is the one MAF caches
    it under)."""
    parent = frame.parent
    state = frame.state if scoper is not None else None
    # Restored from a checkpoint without the shim's record: also count as MAF alone would.
    replay = state.legacy if state is not None else None
    maf_key = None if replay is None else original(replay.maf_counters, *arguments)
    if parent is not None and scoper is not None:
        arguments = scoper(arguments, parent.scope())
    key = original(run_context, *arguments)
    if state is not None:
        if parent is not None:
            state.nested(run_context)
        elif replay is not None and replay.settle(key, maf_key):
            state.drop(run_context, key)
    frame.key = key
    return key


def scoping_allocator(original: Allocator, scoper: ArgumentScoper | None) -> Allocator:
    """Wrap a RunContext key allocator so nested calls get parent-scoped keys.

    With *scoper* ``None`` the key is left as MAF makes it and only recorded. The wrapper takes the allocator's
    own parameters (``step_name``, or ``step_name, wrapper_identity, identity``), not ``*arguments``: it runs at
    every step call, and a variadic wrapper costs several times a plain one.
    """
    if positional_names(original) == ("self", "step_name"):

        @functools.wraps(original)
        def allocate(self: Any, step_name: Any) -> Any:
            frame = current_step_frame.get()  # the call allocating this key (set by step_calls)
            if frame is None or frame.run_context is not self:
                return original(self, step_name)
            state = frame.state
            if state is not None and state.legacy is None:
                # _allocate_in_frame without a legacy replay (no MAF-alone counting): the call of every step
                parent = frame.parent
                if parent is None or scoper is None:
                    key = frame.key = original(self, step_name)
                    return key
                key = frame.key = original(self, f"{step_name}{SCOPE_SEPARATOR}{parent.scope()}")
                if not state.marked:
                    state.nested(self)
                return key
            return _allocate_in_frame(original, scoper, self, frame, (step_name,))

        return allocate

    @functools.wraps(original)
    def allocate_by_identity(self: Any, step_name: Any, wrapper_identity: Any, identity: Any) -> Any:
        frame = current_step_frame.get()
        if frame is None or frame.run_context is not self:
            return original(self, step_name, wrapper_identity, identity)
        frame.identity = (step_name, wrapper_identity, identity)
        return _allocate_in_frame(original, scoper, self, frame, frame.identity)

    return allocate_by_identity


def scoped_allocators(framework: Framework) -> dict[str, Allocator]:
    """RunContext attribute -> replacement allocator, for the release's key scheme."""
    if framework.scheme == COUNTER:
        plan: dict[str, ArgumentScoper | None] = {"_get_step_cache_key": scope_step_name}
    else:
        plan = {
            "_get_legacy_step_cache_key": scope_step_name,
            "_get_automatic_step_cache_key": scope_identity,
            "_get_explicit_step_cache_key": None,
        }
    return {
        name: scoping_allocator(framework.original(framework.run_context, name), scoper)
        for name, scoper in plan.items()
    }


def skipping_foreign_fallback(original: Callable[..., Any], versioned_prefix: str) -> Callable[..., Any]:
    """Wrap ``RunContext._get_cached_result`` (1.20+, scoped mode without replay verification): a
    call MAF keyed by its identity that misses there looks at its call-order key too, for checkpoints of releases
    without fingerprints. In a run the shim judged its own, that key (counted per parent, so not the one MAF
    alone would look at) holds a call MAF could not fingerprint, never this one (this one's result goes under
    its identity key), so the look is a miss. With verification on,
    ``replay_check`` decides the same by the entry's record."""

    @functools.wraps(original)
    def _get_cached_result(self: Any, key: Any) -> tuple[bool, Any]:
        found, value = original(self, key)
        if not found:
            return found, value
        frame = current_step_frame.get()
        if (frame is None or frame.run_context is not self or key == frame.key or frame.state is None
                or frame.state.legacy is not None):
            return found, value
        own = frame.key
        if isinstance(own, str) and own.startswith(versioned_prefix):
            return False, None
        return found, value

    return _get_cached_result


def _probe_keys(framework: Framework) -> list[Any]:
    """Allocate scoped keys with the release's own (unpatched) allocators on a stand-in context."""
    run_context = framework.run_context
    counters = SimpleNamespace(_step_call_counters={}, _step_identity_counters={})
    scope = "0123456789abcdef"
    if framework.scheme == COUNTER:
        allocate = framework.original(run_context, "_get_step_cache_key")
        return [allocate(counters, *scope_step_name(("steplint-probe",), scope))]
    legacy = framework.original(run_context, "_get_legacy_step_cache_key")
    automatic = framework.original(run_context, "_get_automatic_step_cache_key")
    return [
        legacy(counters, *scope_step_name(("steplint-probe",), scope)),
        automatic(counters, *scope_identity(("steplint-probe", "a" * 64, "b" * 64), scope)),
    ]


def verify_scoped_keys_survive_checkpoints(framework: Framework) -> None:
    """Round-trip scoped keys through the release's own checkpoint export/import and validation.

    Runs the release's code on a stand-in object rather than a real RunContext,
    because constructing one would consume MAF's one-time experimental warning.
    """
    run_context = framework.run_context
    try:
        keys = _probe_keys(framework)
        counts = {key: index for index, key in enumerate(keys)}
        counts[marker_key(framework)] = 2**60 - 1  # the shim's record must come back too
        saved = SimpleNamespace(
            _step_cache={key: f"value-{index}" for index, key in enumerate(keys)},
            _step_cache_auto_request_info_counts=counts,
            _non_replayable_step_cache_keys=set(),
        )
        exported = framework.original(run_context, "_export_step_cache")(saved)
        exported_counts = framework.original(run_context, "_export_step_cache_auto_request_info_counts")(saved)
        restored = SimpleNamespace()
        framework.original(run_context, "_import_step_cache")(restored, exported)
        framework.original(run_context, "_import_step_cache_auto_request_info_counts")(restored, exported_counts)
        survived = (
            restored._step_cache == saved._step_cache
            and restored._step_cache_auto_request_info_counts == saved._step_cache_auto_request_info_counts
        )
        failure = None if survived else f"keys came back as {sorted(map(key_text, restored._step_cache))}"
    except Exception as exc:  # any failure of the release's code means the format is not accepted
        failure = f"{type(exc).__name__}: {exc}"
    if failure is not None:
        raise UnsupportedFrameworkError(
            f"agent-framework-core {framework.version} does not round-trip steplint's scoped cache "
            f"keys through its checkpoint export/import ({failure}), so scoped mode would lose "
            f"nested step results on resume. Use mode='flat', or a release from the tested range.",
            framework_version=framework.version,
        )
