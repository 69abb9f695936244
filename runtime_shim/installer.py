"""install() / uninstall() / installed(): the shim's life cycle."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from steplint.runtime_shim.errors import (
    ShimAlreadyInstalledError,
    UnfingerprintableArgumentsError,
    UnfingerprintableArgumentsWarning,
    release_without_fingerprints_message,
)
from steplint.runtime_shim.fingerprint_guard import POLICIES, Policy, guarded_replay_identity
from steplint.runtime_shim.framework import COUNTER, Framework, detect_framework
from steplint.runtime_shim.key_scoping import scoped_allocators, verify_scoped_keys_survive_checkpoints
from steplint.runtime_shim.legacy_replay import legacy_replay_hooks
from steplint.runtime_shim.patching import PatchSet
from steplint.runtime_shim.step_calls import shimmed_step_call
from steplint.runtime_shim.versions import installed_framework_version, require_tested_version

Mode = Literal["flat", "scoped"]
MODES: tuple[Mode, ...] = ("flat", "scoped")


@dataclass(frozen=True)
class _Options:
    mode: Mode
    on_unfingerprintable: Policy

    def describe(self) -> str:
        return f"mode={self.mode!r}, on_unfingerprintable={self.on_unfingerprintable!r}"


@dataclass
class _Installation:
    options: _Options
    framework: Framework
    patches: PatchSet


_lock = threading.Lock()
_active: _Installation | None = None


def _validated_options(mode: str, on_unfingerprintable: str) -> _Options:
    if mode not in MODES:
        raise ValueError(f"steplint runtime shim: mode must be one of {MODES}, not {mode!r}.")
    if on_unfingerprintable not in POLICIES:
        raise ValueError(
            f"steplint runtime shim: on_unfingerprintable must be one of {POLICIES}, not {on_unfingerprintable!r}."
        )
    return _Options(mode, on_unfingerprintable)  # type: ignore[arg-type]


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


def _patch(framework: Framework, options: _Options) -> PatchSet:
    step_wrapper, run_context = framework.step_wrapper, framework.run_context
    patches = PatchSet()
    patches.replace(
        step_wrapper,
        "__call__",
        shimmed_step_call(
            framework.original(step_wrapper, "__call__"),
            framework.active_run_ctx,
            refuse_nesting=options.mode == "flat",
        ),
    )
    if options.mode == "scoped":
        replacements = {**scoped_allocators(framework), **legacy_replay_hooks(framework)}
        for name, replacement in replacements.items():
            patches.replace(run_context, name, replacement)
    if framework.scheme != COUNTER and options.on_unfingerprintable != "allow":
        original = framework.original(step_wrapper, "_get_replay_identity")
        patches.replace(
            step_wrapper,
            "_get_replay_identity",
            guarded_replay_identity(original, framework, options.on_unfingerprintable),
        )
    return patches


def install(
    mode: Mode,
    *,
    on_unfingerprintable: Policy = "allow",
    allow_untested: bool = False,
) -> None:
    """Patch the installed agent-framework-core so nested ``@step`` calls are safe.

    Call once at application start-up, before any workflow runs.

    Args:
        mode: ``"flat"``: a step entered while another step's body runs (in the
            same task or a task that body spawned) raises
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
        allow_untested: install on an agent-framework-core version outside
            :data:`TESTED_VERSIONS`. A release whose internals have an unknown
            shape is refused regardless.

    Raises:
        UnsupportedFrameworkError: MAF is missing, untested or of unknown shape.
        ShimAlreadyInstalledError: the shim is active with other options.
        UnfingerprintableArgumentsError: "error" on a release without fingerprints.
        ValueError: an option has an unknown value.
    """
    global _active
    options = _validated_options(mode, on_unfingerprintable)
    with _lock:
        if _active is not None:
            if _active.options != options:
                raise ShimAlreadyInstalledError(_active.options.describe(), options.describe())
            return
        version = installed_framework_version()
        require_tested_version(version, allow_untested=allow_untested)
        framework = detect_framework(version)
        _apply_fingerprint_policy_to_release(framework, options.on_unfingerprintable)
        if options.mode == "scoped":
            verify_scoped_keys_survive_checkpoints(framework)
        _active = _Installation(options, framework, _patch(framework, options))


def uninstall() -> None:
    """Undo :func:`install`: MAF's classes get back their original attributes. No-op if not installed."""
    global _active
    with _lock:
        if _active is None:
            return
        _active.patches.restore()
        _active = None


def installed_mode() -> Mode | None:
    """The active mode (``"flat"`` or ``"scoped"``), or ``None`` if the shim is not installed."""
    active = _active
    return None if active is None else active.options.mode


@contextmanager
def installed(
    mode: Mode,
    *,
    on_unfingerprintable: Policy = "allow",
    allow_untested: bool = False,
) -> Iterator[None]:
    """Context manager form of :func:`install`.

    Uninstalls on exit only if it was the one that installed, so it nests
    inside an application-wide ``install()`` with the same options.
    """
    with _lock:
        already_active = _active is not None
    install(mode, on_unfingerprintable=on_unfingerprintable, allow_untested=allow_untested)
    try:
        yield
    finally:
        if not already_active:
            uninstall()
