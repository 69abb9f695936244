"""What the program's Python release decides: ``sys.version_info`` compared with a tuple of constants.

The release is known from below only: the target Python (``--target-python``, ``target-python``, else the lowest
release ``requires-python`` allows) is the lowest one the program runs on, and any later one may run it too. So a
comparison is decided where it comes out the same on the lowest release and on every later one: ``>=`` and ``>``
can only become true as the release grows, ``<`` and ``<=`` only false.
"""

from __future__ import annotations

import operator
import re

VERSION_INFO = "sys.version_info"
_ORDERINGS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_GROWING = frozenset({">", ">="})


_PREFIX = re.compile(r"sys\.version_info\[:[1-9][0-9]*\]")


def is_version_name(name: str) -> bool:
    """``sys.version_info`` or a ``version_prefix`` of it (not ``sys.version_info.major``)."""
    return name == VERSION_INFO or _PREFIX.fullmatch(name) is not None


def version_prefix(name: str, upper: object) -> str | None:
    """The name of ``sys.version_info[:upper]`` (None: not a prefix of the release)."""
    if name != VERSION_INFO or type(upper) is not int or upper < 1:
        return None
    return f"{VERSION_INFO}[:{upper}]"


def release_compared(op: str, version: str, other: tuple, lowest: tuple[int, int], version_first: bool = True) -> bool | None:
    """``version op other`` (``other op version`` unless *version_first*) on every release from *lowest* on, where it
    is the same on all of them; *version* is ``VERSION_INFO`` or a ``version_prefix`` name."""
    if not version_first:
        op = _MIRRORED.get(op, op)
    oldest: tuple = (*lowest, 0, "alpha", 0)
    if version != VERSION_INFO:
        oldest = oldest[: int(version[len(VERSION_INFO) + 2 : -1])]
    if op in ("==", "!="):
        if len(other) == len(oldest):
            return None  # a release equal to it may or may not run the program
        return op == "!="  # a tuple never equals one of another length
    compare = _ORDERINGS.get(op)
    if compare is None:
        return None
    try:
        holds = bool(compare(oldest, other))
    except TypeError:  # ``(3, 11) < ("3",)``: Python raises
        return None
    if op in _GROWING:
        return True if holds else None
    return None if holds else False
