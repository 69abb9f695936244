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

This package imports neither agent_framework (until ``install()``) nor any of
the linter's dependencies.
"""

from steplint.runtime_shim.errors import (
    NestedStepError,
    RuntimeShimError,
    ShimAlreadyInstalledError,
    UnfingerprintableArgumentsError,
    UnfingerprintableArgumentsWarning,
    UnsupportedFrameworkError,
)
from steplint.runtime_shim.installer import install, installed, installed_mode, uninstall
from steplint.runtime_shim.versions import TESTED_VERSIONS

__all__ = [
    "NestedStepError",
    "RuntimeShimError",
    "ShimAlreadyInstalledError",
    "TESTED_VERSIONS",
    "UnfingerprintableArgumentsError",
    "UnfingerprintableArgumentsWarning",
    "UnsupportedFrameworkError",
    "install",
    "installed",
    "installed_mode",
    "uninstall",
]
