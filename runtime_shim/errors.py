"""Errors and warnings raised by the runtime shim.

Every message says what happened, where (step names, parameters or the
framework version) and what to do about it, because these errors surface in
application logs far from the code that caused them.
"""

from __future__ import annotations

from collections.abc import Sequence

ISSUE_URL = "https://github.com/microsoft/agent-framework/issues/9383"


class RuntimeShimError(Exception):
    """Base class of every error raised by ``steplint.runtime_shim``."""


class NestedStepError(RuntimeShimError, RuntimeError):
    """A ``@step`` was entered while another step's body was running (flat mode).

    Attributes:
        outer_step: name of the step whose body was running.
        inner_step: name of the step that was called from it.
    """

    def __init__(self, outer_step: str, inner_step: str) -> None:
        self.outer_step = outer_step
        self.inner_step = inner_step
        super().__init__(
            f"@step {inner_step!r} was called while the body of @step {outer_step!r} is running "
            f"(a step calling a step). agent-framework caches such nested calls by call order, so a "
            f"resume from a checkpoint can silently return another call's result ({ISSUE_URL}). "
            f"steplint's runtime shim is installed in flat mode, which forbids nesting. Fix: run the "
            f"inner code inline with `{inner_step}.__wrapped__(...)` inside {outer_step!r}, call "
            f"{inner_step!r} from the @workflow body instead, or install the shim with "
            f"mode='scoped' to give nested steps parent-scoped cache keys."
        )


class UnfingerprintableArgumentsError(RuntimeShimError, TypeError):
    """MAF would fall back to a call-order cache key for a step call.

    Raised when the shim was installed with ``on_unfingerprintable="error"``.

    Attributes:
        step: name of the step, or ``None`` when raised by ``install()`` on a
            release that has no argument fingerprints at all.
        parameters: names of the parameters whose values MAF cannot
            fingerprint (empty when raised by ``install()``).
        framework_version: the installed ``agent-framework-core`` version.
    """

    def __init__(
        self,
        message: str,
        *,
        step: str | None,
        parameters: Sequence[str],
        framework_version: str,
    ) -> None:
        self.step = step
        self.parameters = tuple(parameters)
        self.framework_version = framework_version
        super().__init__(message)

    @classmethod
    def for_step_call(
        cls,
        step: str,
        unfingerprintable: Sequence[tuple[str, str]],
        framework_version: str,
    ) -> UnfingerprintableArgumentsError:
        """Build the error for one step call; *unfingerprintable* is (parameter, type name) pairs."""
        described = (
            ", ".join(f"parameter {name!r} ({type_name})" for name, type_name in unfingerprintable)
            or "one of its arguments"
        )
        first = unfingerprintable[0][0] if unfingerprintable else "arg"
        return cls(
            f"@step {step!r} was called with argument(s) that agent-framework-core "
            f"{framework_version} cannot fingerprint: {described}. With no replay_key, MAF falls "
            f"back to a call-order cache key for this call, which can replay another call's "
            f"result after a resume ({ISSUE_URL}). steplint's runtime shim was installed with "
            f"on_unfingerprintable='error'. Fix: pass values MAF can fingerprint (None, bool, int, "
            f"finite float, str, bytes, and lists, tuples, frozensets or str-keyed dicts of them; "
            f"for a pydantic model pass e.g. `{first}.model_dump()`), or declare "
            f"@step(replay_key=...) returning a stable unique string per logical call, or install "
            f"with on_unfingerprintable='warn' or 'allow'.",
            step=step,
            parameters=[name for name, _ in unfingerprintable],
            framework_version=framework_version,
        )

    @classmethod
    def for_release_without_fingerprints(cls, framework_version: str) -> UnfingerprintableArgumentsError:
        """Build the install-time error for releases (1.18, 1.19) that never fingerprint arguments."""
        return cls(
            release_without_fingerprints_message(framework_version, "error"),
            step=None,
            parameters=(),
            framework_version=framework_version,
        )


def release_without_fingerprints_message(framework_version: str, policy: str) -> str:
    """What on_unfingerprintable means on 1.18/1.19, where no step argument is ever fingerprinted."""
    return (
        f"agent-framework-core {framework_version} has no argument fingerprints: every @step cache "
        f"key is a call-order key, so on_unfingerprintable={policy!r} applies to every step call "
        f"and steplint's runtime shim reports it once, at install(). Fix: upgrade to "
        f"agent-framework-core>=1.20.0 (argument fingerprints and replay_key=), or install with "
        f"on_unfingerprintable='allow' (mode='scoped' still makes nested call-order keys safe)."
    )


class UnfingerprintableArgumentsWarning(RuntimeWarning):
    """Warning form of :class:`UnfingerprintableArgumentsError` (``on_unfingerprintable="warn"``)."""


class UnsupportedFrameworkError(RuntimeShimError, RuntimeError):
    """The installed agent-framework-core is not one the shim can patch safely.

    Attributes:
        framework_version: the installed version, or ``None`` if it is not installed.
    """

    def __init__(self, message: str, *, framework_version: str | None) -> None:
        self.framework_version = framework_version
        super().__init__(message)


class ShimAlreadyInstalledError(RuntimeShimError, RuntimeError):
    """``install()`` was called with options that differ from the active installation."""

    def __init__(self, active: str, requested: str) -> None:
        self.active = active
        self.requested = requested
        super().__init__(
            f"steplint's runtime shim is already installed with {active}; cannot install it "
            f"with {requested} at the same time. Call steplint.runtime_shim.uninstall() first "
            f"(an application should install the shim once, at start-up)."
        )


class ReplayMismatchError(RuntimeShimError, RuntimeError):
    """A resumed call was about to take a cached result that another call made (``on_replay_mismatch="error"``).

    Raised before the cached value is returned. The message names what differs between the call and
    the one that made the entry (arguments, model fields), never their values.

    Attributes:
        step: the step's name.
        key: the cache key, as the checkpoint stores it.
        differences: what differs, e.g. ``["argument 'job'", "field job.label"]``.
    """

    def __init__(self, step: str, key: str, differences: Sequence[str], *, answer: bool = False) -> None:
        self.step = step
        self.key = key
        self.differences = tuple(differences)
        self.answer = answer  # the answer to a request (key: the request's id), not a cached result
        message = answer_mismatch_message if answer else replay_mismatch_message
        super().__init__(message(step, key, differences, "error"))


class ReplayMismatchWarning(RuntimeWarning):
    """Warning form of :class:`ReplayMismatchError` (``on_replay_mismatch="warn"``): MAF's result is kept."""


#: What a mismatch message says happened, by policy.
_MISMATCH_OUTCOMES = {
    "error": "steplint's runtime shim refused it (on_replay_mismatch='error')",
    "warn": "MAF returned it anyway (on_replay_mismatch='warn')",
}
#: The asker of a request made by the workflow body itself, not by a step (``ReplayMismatchError.step``).
WORKFLOW_BODY = "<workflow>"


def _asker(step: str) -> str:
    return "the workflow body" if step == WORKFLOW_BODY else f"@step {step!r}"


def replay_mismatch_message(step: str, key: str, differences: Sequence[str], policy: str) -> str:
    what = ", ".join(differences) or "the call"
    outcome = _MISMATCH_OUTCOMES[policy]
    return (
        f"@step {step!r}: the cached result under key {key!r} was made by another call ({what} differ), "
        f"so agent-framework-core was about to hand this call another call's result on resume "
        f"({ISSUE_URL}); {outcome}. Causes: the workflow calls its steps in another order than the run "
        f"that made the checkpoint (a branch on time, randomness or I/O; code changed since), or the "
        f"checkpoint holds nested calls. Fix: make the order deterministic, give the step a "
        f"replay_key=, or install with on_replay_mismatch='rerun' to run such calls again."
    )


def answer_mismatch_message(step: str, request_id: str, differences: Sequence[str], policy: str) -> str:
    what = ", ".join(differences) or "the request"
    outcome = _MISMATCH_OUTCOMES[policy]
    return (
        f"{_asker(step)}: the answer to request {request_id!r} was given for another request ({what} differ), "
        f"so agent-framework-core was about to hand this request another request's answer on resume "
        f"({ISSUE_URL}); {outcome}. Requests without request_id= are matched by the order they are made in; "
        f"causes: a call that took another call's cached result never made its own request, or the code changed "
        f"while the run was paused. Fix: pass request_id= naming the request, or install with "
        f"on_replay_mismatch='rerun' to ask such requests again."
    )


class ArgumentMutatedError(RuntimeShimError, RuntimeError):
    """A step body changed an argument it was given (``on_argument_mutation="error"``).

    Raised when the body completes, before MAF caches its result: MAF checkpoints a step's result,
    never its arguments, so a resume that takes the cached result never makes the change.

    Attributes:
        step: the step's name.
        changed: what changed, e.g. ``["argument 'doc'"]`` (names, never values).
    """

    def __init__(self, step: str, changed: Sequence[str]) -> None:
        self.step = step
        self.changed = tuple(changed)
        super().__init__(argument_mutation_message(step, changed))


class ArgumentMutatedWarning(RuntimeWarning):
    """Warning form of :class:`ArgumentMutatedError` (``on_argument_mutation="warn"``, the default)."""


def argument_mutation_message(step: str, changed: Sequence[str]) -> str:
    return (
        f"@step {step!r} changed {', '.join(changed)} while it ran. agent-framework-core checkpoints a step's "
        f"result, not its arguments, so a resume that takes the cached result never makes this change and the "
        f"code after the call sees the argument as it was before the step. Fix: return the new value (or a "
        f"changed copy) from the step instead of changing the argument in place."
    )


class UnverifiedReplayWarning(RuntimeWarning):
    """A resume took call-order cache entries that carry no replay record (once per run).

    The checkpoint was made without replay verification (before the shim was installed, or with
    ``on_replay_mismatch="off"``), so nothing can tell whether an entry is the call's own.
    """


def unverified_replay_message(step: str, key: str) -> str:
    return (
        f"@step {step!r}: this run resumed from a checkpoint made without steplint's replay records "
        f"(key {key!r} has none), so its call-order cache entries are taken unverified: where that run "
        f"called steps in another order or nested them, a call may get another call's result "
        f"({ISSUE_URL}). Checkpoints this run makes carry records. Said once per run."
    )


def unverified_answer_message(step: str, request_id: str) -> str:
    return (
        f"{_asker(step)}: the answer to request {request_id!r} was given for a request asked without steplint's replay "
        f"records (before the shim was installed, or with on_replay_mismatch='off'), so it is taken unverified: "
        f"where that run made its requests in another order, this request may get another request's answer "
        f"({ISSUE_URL}). Said once per run."
    )
