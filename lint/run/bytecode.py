"""Does bytecode beside a file prove it compiles? The import system's own test, so a skipped file need not be parsed."""

from __future__ import annotations

import importlib.util
import os
import sys


def compiled_by_this_python(path: str) -> bool:
    """A ``.pyc`` this interpreter wrote for exactly this source exists (timestamp-checked).

    Both the ``__pycache__`` beside the file and, under ``PYTHONPYCACHEPREFIX``,
    the prefixed tree count: an installed library's bytecode sits beside it.
    """
    if not path.endswith(".py"):
        return False
    try:
        stat = os.stat(path)
    except (OSError, ValueError):
        return False
    return any(_vouches(candidate, stat) for candidate in _bytecode_paths(path))


def _bytecode_paths(path: str) -> list[str]:
    folder, name = os.path.split(os.path.abspath(path))
    beside = os.path.join(folder, "__pycache__", f"{name[:-3]}.{sys.implementation.cache_tag}.pyc")
    try:
        prefixed = importlib.util.cache_from_source(path)
    except (NotImplementedError, ValueError):
        return [beside]
    return [beside] if prefixed == beside else [beside, prefixed]


def _vouches(bytecode: str, stat: os.stat_result) -> bool:
    try:
        with open(bytecode, "rb") as handle:
            header = handle.read(16)
    except (OSError, ValueError):
        return False
    if len(header) < 16 or header[:4] != importlib.util.MAGIC_NUMBER or int.from_bytes(header[4:8], "little") != 0:
        return False
    mtime = int.from_bytes(header[8:12], "little")
    size = int.from_bytes(header[12:16], "little")
    return mtime == (int(stat.st_mtime) & 0xFFFFFFFF) and size == (stat.st_size & 0xFFFFFFFF)
