"""TOML files read once per version of their bytes: a language server resolves settings on every lint.

A file is known by its (mtime, size, inode); an edit changes the key, so the
next read parses it again. Only successful parses are kept, and callers never
change what they are given.
"""

from __future__ import annotations

import os
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_KEPT = 64
_parsed: dict[str, tuple[tuple[int, int, int], dict]] = {}


def load_toml(path: str | os.PathLike) -> dict:
    """The parsed file (raises OSError, tomllib.TOMLDecodeError, UnicodeDecodeError or RecursionError)."""
    name = os.fspath(path)
    with open(name, "rb") as handle:
        stat = os.fstat(handle.fileno())
        key = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
        kept = _parsed.get(name)
        if kept is not None and kept[0] == key:
            return kept[1]
        data = tomllib.load(handle)
    if len(_parsed) >= _KEPT:
        del _parsed[next(iter(_parsed))]
    _parsed[name] = (key, data)
    return data
