"""agent-framework-core versions, as far as steplint's rules care."""

from __future__ import annotations

import re

Version = tuple[int, int, int]

OLDEST_SUPPORTED: Version = (1, 18, 0)
FINGERPRINT_VERSION: Version = (1, 20, 0)  # argument fingerprints and replay_key= arrived here
NEWEST: Version = (1, 23, 0)

_VERSION = re.compile(r"^\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def parse_version(text: str) -> Version:
    """``1.19`` -> (1, 19, 0). Raises ValueError on anything that is not a version."""
    match = _VERSION.match(text)
    if match is None or match.end() != len(text.strip()) and not text.strip()[match.end():].startswith(("a", "b", "rc", ".", "+", "-")):
        raise ValueError(f"not a version: {text!r}")
    major, minor, patch = (int(part) if part else 0 for part in match.groups())
    return (major, minor, patch)


def format_version(version: Version) -> str:
    return ".".join(str(part) for part in version)


def format_range() -> str:
    return f"{format_version(OLDEST_SUPPORTED)[:-2]} to {format_version(NEWEST)[:-2]}"


def checked_target(text: str) -> Version:
    """A ``target-version`` as a user wrote it: a release steplint knows the semantics of, or ``newest``.

    Raises ValueError naming the supported range for anything older than the
    functional API or newer than the newest release steplint knows.
    """
    if text.strip().lower() == "newest":
        return NEWEST
    version = parse_version(text)
    if version < OLDEST_SUPPORTED or version[:2] > NEWEST[:2]:
        raise ValueError(
            f"{text.strip()} is not a release steplint knows (it knows {format_range()}); "
            f"to check code for a newer one as {format_version(NEWEST)[:-2]}, pass 'newest'"
        )
    return version
