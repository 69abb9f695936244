"""``on_unfingerprintable``: make MAF's silent call-order fallback warn or fail.

On 1.20+ ``StepWrapper._get_replay_identity`` returns ``None`` when a step has
no ``replay_key=`` and an argument cannot be fingerprinted; ``__call__`` then
silently keeps the call-order key. The guard wraps that method and, at exactly
that point, warns or raises naming the step and the offending parameters.

It stays quiet when the step's wrapper itself has no durable identity
(captured closure state, mutable defaults): MAF already refuses to checkpoint
such calls with its own loud error.

1.18 and 1.19 have no fingerprints at all (every key is call-order), so there
the policy is applied once, by ``install()``: "error" refuses to install and
"warn" warns once; see installer.py.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, Literal

from steplint.runtime_shim.errors import (
    UnfingerprintableArgumentsError,
    UnfingerprintableArgumentsWarning,
)
from steplint.runtime_shim.framework import Framework

Policy = Literal["allow", "warn", "error"]
POLICIES: tuple[Policy, ...] = ("allow", "warn", "error")

# Frames between warnings.warn and the code that awaited the step:
# this guard, MAF's __call__, the shim's __call__, then the caller.
_CALLER_STACKLEVEL = 4


def unfingerprintable_parameters(
    step: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    fingerprint: Callable[[Any], str | None],
) -> list[tuple[str, str]]:
    """(parameter, type name) for each bound argument MAF's own fingerprint function rejects."""
    try:
        context_parameter = step._ctx_param_name
        identity_kwargs = {name: value for name, value in kwargs.items() if name != context_parameter}
        bound = step._identity_signature.bind(*args, **identity_kwargs)
        bound.apply_defaults()
        return [
            (name, type(value).__qualname__)
            for name, value in bound.arguments.items()
            if fingerprint(value) is None
        ]
    except Exception:  # diagnosis only: MAF itself already accepted these arguments
        return []


def guarded_replay_identity(original: Callable[..., Any], framework: Framework, policy: Policy) -> Callable[..., Any]:
    """Wrap ``StepWrapper._get_replay_identity`` to apply *policy* ("warn" or "error") to the fallback."""
    fingerprint = framework.module._hash_step_identity

    @functools.wraps(original)
    def _get_replay_identity(self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        identity = original(self, args, kwargs)
        if identity is None and self._replay_key is None and self._wrapper_identity_is_durable:
            offending = unfingerprintable_parameters(self, args, kwargs, fingerprint)
            problem = UnfingerprintableArgumentsError.for_step_call(self.name, offending, framework.version)
            if policy == "error":
                raise problem
            warnings.warn(str(problem), UnfingerprintableArgumentsWarning, stacklevel=_CALLER_STACKLEVEL)
        return identity

    return _get_replay_identity
