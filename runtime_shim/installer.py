"""install() / uninstall() / installed(): the shim's life cycle.

One installation at a time, held by ``install()`` (until ``uninstall()``),
by each ``installed()`` block still open (a count: the last block to leave
removes it, unless something else holds it), and by named holders such as
the pytest plugin (``hold()``, until ``let_go()``: an application's
``uninstall()`` never removes their hold). Removal waits while a
workflow run that started under the shim is still running: its checkpoints
must not mix the shim's keys with MAF's.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from steplint.runtime_shim.errors import (
    ShimAlreadyInstalledError,
    UnfingerprintableArgumentsError,
    UnfingerprintableArgumentsWarning,
    release_without_fingerprints_message,
)
from steplint.runtime_shim.fingerprint_guard import (
    POLICIES,
    Policy,
    guarded_replay_identity,
)
from steplint.runtime_shim.answer_check import answer_hooks
from steplint.runtime_shim.framework import COUNTER, Framework, detect_framework
from steplint.runtime_shim.key_scoping import (
    scoped_allocators,
    skipping_foreign_fallback,
    verify_scoped_keys_survive_checkpoints,
)
from steplint.runtime_shim.patching import PatchSet
from steplint.runtime_shim.replay_check import (
    DEFAULT_POLICY,
    MUTATION_POLICIES,
    REPLAY_POLICIES,
    MutationPolicy,
    ReplayPolicy,
    verification_hooks,
)
from steplint.runtime_shim.run_state import (
    copies_cache_at_every_end,
    ending_body,
    run_starter,
    run_state_hooks,
    starting_run,
)
from steplint.runtime_shim.resumability import noting_start
from steplint.runtime_shim.run_tracking import RunTracker, releasing_guard, taking_guard
from steplint.runtime_shim.step_calls import shimmed_step_call
from steplint.runtime_shim.versions import (
    installed_framework_version,
    require_tested_version,
)

Mode = Literal["flat", "scoped"]
MODES: tuple[Mode, ...] = ("flat", "scoped")


@dataclass(frozen=True)
class _Options:
    mode: Mode
    on_unfingerprintable: Policy
    on_replay_mismatch: str
    on_argument_mutation: str = "warn"

    def describe(self) -> str:
        return (f"mode={self.mode!r}, on_unfingerprintable={self.on_unfingerprintable!r}, "
                f"on_replay_mismatch={self.on_replay_mismatch!r}, on_argument_mutation={self.on_argument_mutation!r}")


@dataclass
class _Installation:
    options: _Options
    framework: Framework
    patches: PatchSet
    tracker: RunTracker
    permanent: bool = False  # held by install() until uninstall()
    blocks: int = 0  # installed() blocks still open
    holders: set[str] = field(default_factory=set)  # named holders (hold()), each until its let_go()
    removal_pending: bool = False  # let go of, but a run still needs it


_lock = threading.Lock()
_active: _Installation | None = None


def _validated_options(mode: str, on_unfingerprintable: str, on_replay_mismatch: str | None,
                       on_argument_mutation: str = "warn") -> _Options:
    if mode not in MODES:
        raise ValueError(f"steplint runtime shim: mode must be one of {MODES}, not {mode!r}.")
    if on_unfingerprintable not in POLICIES:
        raise ValueError(
            f"steplint runtime shim: on_unfingerprintable must be one of {POLICIES}, not {on_unfingerprintable!r}."
        )
    replay = DEFAULT_POLICY[mode] if on_replay_mismatch is None else on_replay_mismatch
    if replay not in REPLAY_POLICIES:
        raise ValueError(
            f"steplint runtime shim: on_replay_mismatch must be one of {REPLAY_POLICIES}, not {on_replay_mismatch!r}."
        )
    if on_argument_mutation not in MUTATION_POLICIES:
        raise ValueError(f"steplint runtime shim: on_argument_mutation must be one of {MUTATION_POLICIES}, "
                         f"not {on_argument_mutation!r}.")
    return _Options(mode, on_unfingerprintable, replay, on_argument_mutation)  # type: ignore[arg-type]


def _apply_fingerprint_policy_to_release(framework: Framework, policy: Policy) -> None:
    """On releases without fingerprints the policy is settled once, here."""
    if framework.scheme != COUNTER or policy == "allow":
        return
    if policy == "error":
        raise UnfingerprintableArgumentsError.for_release_without_fingerprints(framework.version)
    warnings.warn(
        release_without_fingerprints_message(framework.version, policy),
        UnfingerprintableArgumentsWarning,
        stacklevel=3,  # the caller of install()
    )


def _patch(framework: Framework, options: _Options, tracker: RunTracker) -> PatchSet:
    step_wrapper, run_context, workflow = framework.step_wrapper, framework.run_context, framework.functional_workflow
    patches = PatchSet()
    verifying = options.on_replay_mismatch != "off"
    maf_methods: dict[str, Any] = {}  # RunContext's hooked methods as MAF defines them: a bypassed run's own
    patches.replace(
        step_wrapper,
        "__call__",
        shimmed_step_call(
            framework.original(step_wrapper, "__call__"),
            framework.active_run_ctx,
            refuse_nesting=options.mode == "flat",
            start_run=(run_starter(framework, verifying, maf_methods)
                       if options.mode == "scoped" else None),
        ),
    )
    patches.replace(run_context, "__init__", starting_run(framework.original(run_context, "__init__")))
    patches.replace(workflow, "_ensure_not_running",
                    taking_guard(tracker, noting_start(framework.original(workflow, "_ensure_not_running"))))
    patches.replace(workflow, "_release_run_guard", releasing_guard(tracker, framework.original(workflow, "_release_run_guard")))
    if options.mode == "scoped":
        replacements = {**scoped_allocators(framework), **run_state_hooks(framework, result_hook=not verifying)}
        for name, replacement in replacements.items():
            patches.replace(run_context, name, replacement)
        patches.replace(workflow, "_execute", ending_body(framework.original(workflow, "_execute"),
                                                          copies_cache_at_every_end(workflow)))
    if framework.scheme != COUNTER and options.on_unfingerprintable != "allow":
        original = framework.original(step_wrapper, "_get_replay_identity")
        patches.replace(
            step_wrapper,
            "_get_replay_identity",
            guarded_replay_identity(original, framework, options.on_unfingerprintable),
        )
    if options.mode == "scoped" and not verifying and framework.scheme != COUNTER:
        patches.replace(run_context, "_get_cached_result", skipping_foreign_fallback(
            framework.original(run_context, "_get_cached_result"), framework.versioned_prefix))
    if verifying:
        # Built on what is installed now, so the shim's own hooks of these attributes stay in the chain.
        current = lambda owner, name: owner.__dict__[name]  # noqa: E731
        for (owner, name), replacement in verification_hooks(framework, options.on_replay_mismatch, current,
                                                                 options.on_argument_mutation,
                                                                 keeps_run_state=options.mode == "scoped").items():
            patches.replace(owner, name, replacement)
        for (owner, name), replacement in answer_hooks(framework, options.on_replay_mismatch, current).items():
            patches.replace(owner, name, replacement)
    maf_methods.update(patches.originals(run_context, exclude=("__init__",)))
    return patches


def install(
    mode: Mode,
    *,
    on_unfingerprintable: Policy = "allow",
    on_replay_mismatch: ReplayPolicy | None = None,
    on_argument_mutation: MutationPolicy = "warn",
    allow_untested: bool = False,
) -> None:
    """Patch the installed agent-framework-core so nested ``@step`` calls are safe.

    Call once at application start-up, before any workflow runs.

    Args:
        mode: ``"flat"``: a step entered while another step's body runs (in the
            same task or a task that body spawned, whenever that task runs) raises
            :class:`NestedStepError` before MAF caches anything.
            ``"scoped"``: nested steps get cache keys scoped by their parent
            step's key, so they replay correctly from checkpoints; top-level
            keys stay exactly as MAF makes them.
        on_unfingerprintable: what to do where MAF would silently fall back to a
            call-order cache key because a step without ``replay_key=`` got an
            argument it cannot fingerprint: ``"allow"`` (MAF's behaviour),
            ``"warn"`` (:class:`UnfingerprintableArgumentsWarning`) or
            ``"error"`` (:class:`UnfingerprintableArgumentsError`). On 1.18 and
            1.19, which never fingerprint arguments, "error" makes install()
            raise and "warn" warns once here.
        on_replay_mismatch: what to do when a resumed call is about to take a
            cached result whose record (made when the entry was cached) says
            another call made it: ``"error"`` (:class:`ReplayMismatchError`,
            before the value is returned), ``"warn"``
            (:class:`ReplayMismatchWarning`, MAF's value), ``"rerun"`` (the
            body runs; the entry goes to the later call it belongs to) or
            ``"off"`` (no records, no checks). The same for a replay's
            ``request_info`` (without ``request_id=``) about to take the
            answer given for another request; ``"rerun"`` gives it the answer
            given for it, or asks it again (``answer_check``). Default:
            ``"error"`` in flat mode, ``"rerun"`` in scoped mode (README,
            "Replay verification").
        on_argument_mutation: where verification records a call (call-order
            keys), what to do when its body changed an argument it was given
            (a resume that takes the cached result never makes the change):
            ``"warn"`` (:class:`ArgumentMutatedWarning`) or ``"error"``
            (:class:`ArgumentMutatedError`, before MAF caches the result).
        allow_untested: install on an agent-framework-core version outside
            :data:`TESTED_VERSIONS`. A release whose internals have an unknown
            shape is refused regardless.

    Raises:
        UnsupportedFrameworkError: MAF is missing, untested or of unknown shape.
        ShimAlreadyInstalledError: the shim is active with other options.
        UnfingerprintableArgumentsError: "error" on a release without fingerprints.
        ValueError: an option has an unknown value.
    """
    _acquire(_validated_options(mode, on_unfingerprintable, on_replay_mismatch, on_argument_mutation), allow_untested,
             permanent=True)


def _acquire(options: _Options, allow_untested: bool, *, permanent: bool, holder: str | None = None) -> None:
    """Hold the installation with *options* (install it first if there is none)."""
    global _active
    with _lock:
        if _active is not None:
            if _active.options != options:
                raise ShimAlreadyInstalledError(_active.options.describe(), options.describe())
            _active.removal_pending = False
        else:
            version = installed_framework_version()
            require_tested_version(version, allow_untested=allow_untested)
            framework = detect_framework(version)
            _apply_fingerprint_policy_to_release(framework, options.on_unfingerprintable)
            if options.mode == "scoped":
                verify_scoped_keys_survive_checkpoints(framework)
            tracker = RunTracker()
            tracker.on_idle = _run_ended
            _active = _Installation(options, framework, _patch(framework, options, tracker), tracker)
        if holder is not None:
            _active.holders.add(holder)
        elif permanent:
            _active.permanent = True
        else:
            _active.blocks += 1


def _release_if_unheld() -> None:
    """Remove the installation once nothing holds it: at once, or when the last run under it ends. Under _lock."""
    global _active
    if _active is None or _active.permanent or _active.blocks or _active.holders:
        return
    if _active.tracker.running:
        _active.removal_pending = True
        return
    _active.patches.restore()
    _active = None


def _run_ended() -> None:
    """The last run that started under the shim ended: a removal that waited for it happens now."""
    with _lock:
        if _active is not None and _active.removal_pending:
            _release_if_unheld()


def uninstall() -> None:
    """Undo :func:`install` (and any open :func:`installed` blocks): MAF's classes get back their original
    attributes, unless a named holder (:func:`hold`, e.g. the pytest plugin) still holds the shim. While a
    workflow run that started under the shim is still running, the removal waits for it to end. No-op if not
    installed."""
    with _lock:
        if _active is None:
            return
        _active.permanent = False
        _active.blocks = 0
        _release_if_unheld()


def hold(holder: str, mode: Mode, *, on_unfingerprintable: Policy = "allow",
         on_replay_mismatch: ReplayPolicy | None = None, on_argument_mutation: MutationPolicy = "warn",
         allow_untested: bool = False) -> None:
    """Hold the shim as *holder* (a plugin or framework integration): like :func:`install`, but only
    :func:`let_go` with the same name ends this hold, never an application's :func:`uninstall`."""
    _acquire(_validated_options(mode, on_unfingerprintable, on_replay_mismatch, on_argument_mutation), allow_untested,
             permanent=False, holder=holder)


def let_go(holder: str) -> None:
    """End *holder*'s :func:`hold`; the shim is removed if nothing else holds it."""
    with _lock:
        if _active is not None and holder in _active.holders:
            _active.holders.discard(holder)
            _release_if_unheld()


def installed_mode() -> Mode | None:
    """The active mode (``"flat"`` or ``"scoped"``), or ``None`` if the shim is not installed."""
    active = _active
    return None if active is None else active.options.mode


@contextmanager
def installed(
    mode: Mode,
    *,
    on_unfingerprintable: Policy = "allow",
    on_replay_mismatch: ReplayPolicy | None = None,
    on_argument_mutation: MutationPolicy = "warn",
    allow_untested: bool = False,
) -> Iterator[None]:
    """Context manager form of :func:`install`: holds the shim for the block.

    Blocks count: the shim stays while any block (or an application-wide
    ``install()``, even one made inside a block) holds it, and a removal
    waits for the workflow runs that started under it.
    """
    _acquire(_validated_options(mode, on_unfingerprintable, on_replay_mismatch, on_argument_mutation), allow_untested,
             permanent=False)
    try:
        yield
    finally:
        with _lock:
            if _active is not None and _active.blocks:
                _active.blocks -= 1
                _release_if_unheld()
