"""Which agent-framework-core releases the shim is proven on.

A release is listed here only when tests/test_runtime_matrix.py runs the whole
runtime test suite against it in its own virtual environment.
"""

from __future__ import annotations

import re
from importlib import metadata

from steplint.runtime_shim.errors import UnsupportedFrameworkError

DISTRIBUTION = "agent-framework-core"

TESTED_VERSIONS: tuple[str, ...] = (
    "1.18.0",
    "1.19.0",
    "1.20.0",
    "1.21.0",
    "1.22.0",
    "1.23.0",
    "1.26.0",
)


def installed_framework_version() -> str:
    """Return the installed agent-framework-core version, or raise UnsupportedFrameworkError."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise UnsupportedFrameworkError(
            f"{DISTRIBUTION} is not installed in this environment, so there is nothing for "
            f"steplint's runtime shim to patch. Install one of {', '.join(TESTED_VERSIONS)}.",
            framework_version=None,
        ) from None


def require_tested_version(version: str, *, allow_untested: bool) -> None:
    """Refuse a release older than the oldest tested one always, a newer untested one unless the caller opted in."""
    if _release(version) < _release(TESTED_VERSIONS[0]):
        raise UnsupportedFrameworkError(
            f"steplint's runtime shim supports {DISTRIBUTION} {TESTED_VERSIONS[0]} and newer, not the installed "
            f"{version}: upgrade to {DISTRIBUTION}>={TESTED_VERSIONS[0]} to install it.",
            framework_version=version,
        )
    if version in TESTED_VERSIONS or allow_untested:
        return
    raise UnsupportedFrameworkError(
        f"{DISTRIBUTION} {version} is not in steplint's tested range "
        f"({TESTED_VERSIONS[0]} to {TESTED_VERSIONS[-1]}: {', '.join(TESTED_VERSIONS)}). "
        f"Install a tested release, or pass allow_untested=True to install the shim anyway "
        f"(it still refuses a release whose _functional.py has a shape it does not know).",
        framework_version=version,
    )


def _release(version: str) -> tuple[int, ...]:
    """``1.13.0`` -> (1, 13, 0); a pre-release or local part counts by its leading numbers (``1.24.0rc1``)."""
    return tuple(int(part) for part in re.findall(r"\d+", version.split("+")[0])[:3])
