"""Runtime companion of steplint: make nested ``@step`` calls safe on real MAF.

Microsoft Agent Framework caches ``@step`` results under call-order keys when
it cannot fingerprint the arguments (always on 1.18 and 1.19). When a step
calls a step, a cache hit of the outer step skips the inner calls, the
counters shift, and a resume from a checkpoint silently returns another
call's result (microsoft/agent-framework#9383). Install the shim once, at
start-up::

    from steplint import runtime_shim

    runtime_shim.install(mode="scoped")   # nested steps replay correctly
    runtime_shim.install(mode="flat")     # nested steps fail at once

Either way, a resumed call that is about to take a cached result another
call made (its recorded arguments differ) is refused, warned about or run
again (``on_replay_mismatch``), as is a request about to take the answer
given for another request, and ``replay_report()`` counts the checks.

This package imports neither agent_framework (until ``install()``) nor any of
the linter's dependencies.
"""

from steplint.runtime_shim.errors import (
    ArgumentMutatedError,
    ArgumentMutatedWarning,
    NestedStepError,
    ReplayMismatchError,
    ReplayMismatchWarning,
    RuntimeShimError,
    ShimAlreadyInstalledError,
    UnfingerprintableArgumentsError,
    UnfingerprintableArgumentsWarning,
    UnsupportedFrameworkError,
    UnverifiedReplayWarning,
)
from steplint.runtime_shim.installer import (
    install,
    installed,
    installed_mode,
    uninstall,
)
from steplint.runtime_shim.replay_check import (
    ReplayReport,
    replay_report,
    reset_replay_report,
)
from steplint.runtime_shim.versions import TESTED_VERSIONS

__all__ = [
    "ArgumentMutatedError",
    "ArgumentMutatedWarning",
    "NestedStepError",
    "ReplayMismatchError",
    "ReplayMismatchWarning",
    "ReplayReport",
    "RuntimeShimError",
    "ShimAlreadyInstalledError",
    "TESTED_VERSIONS",
    "UnfingerprintableArgumentsError",
    "UnfingerprintableArgumentsWarning",
    "UnsupportedFrameworkError",
    "UnverifiedReplayWarning",
    "install",
    "installed",
    "installed_mode",
    "replay_report",
    "reset_replay_report",
    "uninstall",
]
