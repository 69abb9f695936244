"""Recognise the shape of the installed agent-framework-core's ``_functional.py``.

The shim patches private MAF internals, so it must know exactly which
cache-key scheme the installed release uses. Two schemes exist:

* ``counter`` (1.18, 1.19): ``StepWrapper.__call__`` asks
  ``RunContext._get_step_cache_key(name)`` for a ``(name, call_index)`` tuple;
  checkpoints store it as ``"name::index"``.
* ``fingerprint`` (1.20 and later): ``__call__`` always allocates a legacy
  ``"name::index"`` key, then ``StepWrapper._get_replay_identity`` fingerprints
  the arguments; with an identity it allocates a versioned ``"v2::[...]"``
  key (automatic, with a per-identity occurrence counter, or explicit from
  ``replay_key=``), without one it keeps the legacy call-order key.

A release matches a scheme only if every method the shim relies on exists
with the expected parameters and ``StepWrapper.__call__`` still refers to it.
Anything else is refused, whatever its version number says.
"""

from __future__ import annotations

import importlib
import inspect
import json
from contextvars import ContextVar
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from steplint.runtime_shim.errors import UnsupportedFrameworkError
from steplint.runtime_shim.patching import is_shim_function

FUNCTIONAL_MODULE = "agent_framework._workflows._functional"

COUNTER = "counter"
FINGERPRINT = "fingerprint"


@dataclass(frozen=True)
class _Scheme:
    name: str
    # RunContext method -> positional parameter names it must take.
    run_context_methods: dict[str, tuple[str, ...]]
    # StepWrapper method -> positional parameter names it must take.
    step_wrapper_methods: dict[str, tuple[str, ...]]
    # Names StepWrapper.__call__ must reference, proving it still uses the methods above.
    call_references: tuple[str, ...]
    # Attributes StepWrapper.__init__ must set, for the fingerprint guard's diagnosis.
    init_references: tuple[str, ...]
    module_functions: tuple[str, ...]


_SCHEMES = (
    _Scheme(
        name=COUNTER,
        run_context_methods={
            "_get_step_cache_key": ("self", "step_name"),
            "_set_cached_result": ("self", "key", "value"),
            "_get_cached_result": ("self", "key"),
            "request_info": ("self", "request_data", "response_type"),
            "_export_step_cache": ("self",),
            "_import_step_cache": ("self", "data"),
            "_export_step_cache_auto_request_info_counts": ("self",),
            "_import_step_cache_auto_request_info_counts": ("self", "data"),
        },
        step_wrapper_methods={},
        call_references=("_active_run_ctx", "_get_step_cache_key", "_get_cached_result", "_set_cached_result"),
        init_references=(),
        module_functions=(),
    ),
    _Scheme(
        name=FINGERPRINT,
        run_context_methods={
            "_get_legacy_step_cache_key": ("self", "step_name"),
            "_get_automatic_step_cache_key": ("self", "step_name", "wrapper_identity", "identity"),
            "_get_explicit_step_cache_key": ("self", "step_name", "wrapper_identity", "identity"),
            "_set_cached_result": ("self", "key", "value"),
            "_get_cached_result": ("self", "key"),
            "request_info": ("self", "request_data", "response_type"),
            "_export_step_cache": ("self",),
            "_import_step_cache": ("self", "data"),
            "_export_step_cache_auto_request_info_counts": ("self",),
            "_import_step_cache_auto_request_info_counts": ("self", "data"),
        },
        step_wrapper_methods={"_get_replay_identity": ("self", "args", "kwargs")},
        call_references=(
            "_active_run_ctx",
            "_get_legacy_step_cache_key",
            "_get_replay_identity",
            "_get_automatic_step_cache_key",
            "_get_explicit_step_cache_key",
            "_get_cached_result",
            "_set_cached_result",
        ),
        init_references=("_replay_key", "_wrapper_identity_is_durable", "_identity_signature", "_ctx_param_name"),
        module_functions=("_hash_step_identity", "_validate_step_cache_key", "_decode_versioned_step_cache_key"),
    ),
)


@dataclass(frozen=True)
class Framework:
    """What the shim found in the installed release."""

    version: str
    scheme: str
    module: ModuleType
    step_wrapper: type
    run_context: type
    active_run_ctx: ContextVar[Any]
    functional_workflow: type  # its run guard (_ensure_not_running / _release_run_guard) spans each run; _execute: its body

    @staticmethod
    def original(owner: type, name: str) -> Any:
        """Return the attribute *name* exactly as the class defines it."""
        return owner.__dict__[name]

    @property
    def versioned_prefix(self) -> str:
        """How 1.20+ marks a versioned key (``v2::[...]``); call-order keys have no prefix."""
        return getattr(self.module, "_STEP_CACHE_KEY_V2_PREFIX", "v2::")

    def unallocatable_key(self, counter_name: str, name: str, identity: str) -> Any:
        """A key in the release's own format (valid to its checkpoint import) that no step call can be given:
        ``(counter_name, -1)`` on 1.18/1.19, whose counters start at 0; on 1.20+ an explicit key whose
        wrapper identity is ``steplint-shim``, where MAF writes a SHA-256 digest."""
        if self.scheme == COUNTER:
            return (counter_name, -1)
        return self.versioned_prefix + json.dumps(["explicit", name, "steplint-shim", identity], ensure_ascii=False,
                                                  separators=(",", ":"))


def takes_replayable(set_cached_result: Any) -> bool:
    """Whether a release's ``RunContext._set_cached_result`` takes ``replayable=`` (1.20+): the shim's hooks of it
    take exactly its parameters, since they run at every step call (a variadic wrapper costs several times a
    plain one)."""
    code = set_cached_result.__code__
    return "replayable" in code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]


def positional_names(function: Any) -> tuple[str, ...] | None:
    code = getattr(function, "__code__", None)
    if code is None:
        return None
    return code.co_varnames[: code.co_argcount]


def _scheme_mismatches(scheme: _Scheme, module: ModuleType, step_wrapper: type, run_context: type) -> list[str]:
    problems: list[str] = []
    for owner, methods in ((run_context, scheme.run_context_methods), (step_wrapper, scheme.step_wrapper_methods)):
        for method, expected in methods.items():
            found = positional_names(owner.__dict__.get(method))
            if found != expected:
                problems.append(f"{owner.__name__}.{method}{expected} (found {found})")
    call = step_wrapper.__dict__.get("__call__")
    if not inspect.iscoroutinefunction(call):
        problems.append("StepWrapper.__call__ as a coroutine function")
    for method, required in (("__call__", scheme.call_references), ("__init__", scheme.init_references)):
        references = set(getattr(getattr(step_wrapper.__dict__.get(method), "__code__", None), "co_names", ()))
        problems.extend(f"StepWrapper.{method} using {name}" for name in required if name not in references)
    problems.extend(
        f"module function {name}" for name in scheme.module_functions if not callable(getattr(module, name, None))
    )
    return problems


def detect_framework(version: str) -> Framework:
    """Classify the installed ``_functional.py``; raise UnsupportedFrameworkError on an unknown shape."""
    try:
        module = importlib.import_module(FUNCTIONAL_MODULE)
    except ImportError as exc:
        raise UnsupportedFrameworkError(
            f"agent-framework-core {version} has no importable {FUNCTIONAL_MODULE} ({exc}); "
            f"steplint's runtime shim only knows the functional workflow API of 1.18 and later.",
            framework_version=version,
        ) from exc
    step_wrapper = getattr(module, "StepWrapper", None)
    run_context = getattr(module, "RunContext", None)
    functional_workflow = getattr(module, "FunctionalWorkflow", None)
    active_run_ctx = getattr(module, "_active_run_ctx", None)
    found_classes = (
        isinstance(step_wrapper, type) and isinstance(run_context, type) and isinstance(functional_workflow, type)
        and positional_names(functional_workflow.__dict__.get("_ensure_not_running")) == ("self",)
        and positional_names(functional_workflow.__dict__.get("_release_run_guard")) == ("self",)
        and positional_names(functional_workflow.__dict__.get("_execute")) == ("self", "ctx", "message")
    )
    if not found_classes or not isinstance(active_run_ctx, ContextVar):
        raise UnsupportedFrameworkError(
            f"agent-framework-core {version}: {FUNCTIONAL_MODULE} lacks StepWrapper, RunContext, "
            f"FunctionalWorkflow's run guard and body (_execute) or the _active_run_ctx context variable, "
            f"so steplint's runtime shim cannot patch it. Use a release from the tested range.",
            framework_version=version,
        )
    if is_shim_function(step_wrapper.__dict__.get("__call__")):
        raise UnsupportedFrameworkError(
            f"agent-framework-core {version} is already patched by another copy of steplint's "
            f"runtime shim (was steplint.runtime_shim reloaded?). Uninstall it through the copy "
            f"that installed it, or restart the process.",
            framework_version=version,
        )
    report: list[str] = []
    for scheme in _SCHEMES:
        problems = _scheme_mismatches(scheme, module, step_wrapper, run_context)
        if not problems:
            return Framework(version, scheme.name, module, step_wrapper, run_context, active_run_ctx, functional_workflow)
        report.append(f"{scheme.name} scheme needs " + "; ".join(problems))
    raise UnsupportedFrameworkError(
        f"agent-framework-core {version}: {FUNCTIONAL_MODULE} has a step cache-key shape that "
        f"steplint's runtime shim does not know, so it refuses to patch it (allow_untested does "
        "not override this). Mismatches: " + " | ".join(report) + ". Use a release from the "
        "tested range, or update the shim for this release.",
        framework_version=version,
    )
