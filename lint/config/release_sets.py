"""The known agent-framework-core releases a version specifier admits, as ruff reads ``requires-python``.

A pin is its one release (known or not: ``==1.30`` is a release newer than
steplint knows); any other specifier is every known release it admits, so
``>=1.0.0`` is 1.2.0 to the newest, not its lower bound. PEP 440 clauses
(``>=1.19,<1.21``, ``~=1.13``, ``==1.2.*``, ``!=1.20.0``) and Poetry's
(``^1.2``, ``~1.13``, a bare ``1.21.0``, ``||`` unions, space-separated
clauses) are read; a specifier that is neither admits every known release.
"""

from __future__ import annotations

import re
from typing import Callable

from steplint.core.framework_versions import RELEASES, Version, parse_version

Admits = Callable[[Version], bool]

_CLAUSE = re.compile(r"^\s*(?P<op>===|==|~=|!=|<=|>=|<|>|\^|~)?\s*(?P<version>\d[^\s,;]*)\s*$")


def admitted_by_pep440(spec: str) -> tuple[Version, ...]:
    """``spec`` (PEP 440, clauses separated by commas) as releases."""
    return _admitted([_clause_set(spec, ",")])


def admitted_by_poetry(spec: str) -> tuple[Version, ...]:
    """Poetry's constraint: ``||`` separates alternatives, each of comma- or space-separated clauses."""
    alternatives = [part.strip() for part in spec.split("||")]
    if len(alternatives) == 1 and _bare_pin(alternatives[0]) is not None:
        return (_bare_pin(alternatives[0]),)  # type: ignore[return-value]
    return _admitted([_clause_set(part, ",\\s", poetry=True) for part in alternatives])


def _admitted(alternatives: list[list[Admits] | Version | None]) -> tuple[Version, ...]:
    if any(alternative is None for alternative in alternatives):
        return RELEASES  # a clause steplint cannot read: every release may be the one installed
    pins = [alternative for alternative in alternatives if isinstance(alternative, tuple)]
    if len(pins) == len(alternatives) == 1:
        return pins[0],  # type: ignore[return-value]
    tests = [alternative for alternative in alternatives if isinstance(alternative, list)]
    return tuple(
        release for release in RELEASES
        if release in pins or any(all(admits(release) for admits in clauses) for clauses in tests)
    )


def _bare_pin(spec: str) -> Version | None:
    """A bare Poetry version (``1.21.0``) is an exact pin."""
    if spec and spec[0].isdigit() and "," not in spec and " " not in spec and "*" not in spec:
        return _version(spec)
    return None


def _clause_set(spec: str, separators: str, poetry: bool = False) -> list[Admits] | Version | None:
    """The clauses' tests, the one version an exact pin names, or None for a clause steplint cannot read."""
    spec = re.sub(r"(===|==|~=|!=|<=|>=|<|>|\^|~)\s+", r"\1", spec.strip().strip("()"))
    parts = [part.strip() for part in re.split(f"[{separators}]", spec) if part.strip()]
    tests: list[Admits] = []
    for part in parts:
        match = _CLAUSE.match(part)
        if match is None:
            return None
        op, text = match.group("op") or ("==" if poetry else None), match.group("version")
        if op is None:
            return None
        if op in ("==", "===") and len(parts) == 1 and not text.endswith("*"):
            return _version(text)
        test = _clause_test(op, text)
        if test is None:
            return None
        tests.append(test)
    return tests


def _clause_test(op: str, text: str) -> Admits | None:
    if text.endswith(".*"):
        prefix = _prefix(text.removesuffix(".*"))
        if prefix is None or op not in ("==", "!="):
            return None
        return (lambda v: v[: len(prefix)] == prefix) if op == "==" else (lambda v: v[: len(prefix)] != prefix)
    version, prefix = _version(text), _prefix(text)
    if version is None or prefix is None:
        return None
    compatible = prefix[:-1] if len(prefix) > 1 else prefix  # ~=1.13 is >=1.13,==1.*; ~=1.13.2 is ==1.13.*
    upper = {"^": _caret_upper(prefix), "~": _tilde_upper(prefix)}.get(op)
    tests: dict[str, Admits] = {
        "==": lambda v: v == version, "===": lambda v: v == version, "!=": lambda v: v != version,
        ">=": lambda v: v >= version, "<=": lambda v: v <= version, ">": lambda v: v > version,
        "<": lambda v: v < version, "~=": lambda v: v >= version and v[: len(compatible)] == compatible,
        "^": lambda v: version <= v < upper, "~": lambda v: version <= v < upper,  # type: ignore[operator]
    }
    return tests[op]


def _caret_upper(prefix: tuple[int, ...]) -> Version:
    """``^1.2`` is below 2.0.0; ``^0.3`` below 0.4.0 (the first non-zero part moves)."""
    for index, part in enumerate(prefix):
        if part != 0 or index == len(prefix) - 1:
            return _bumped(prefix, index)
    return _bumped(prefix, 0)


def _tilde_upper(prefix: tuple[int, ...]) -> Version:
    """``~1.13`` and ``~1.13.2`` are below 1.14.0; ``~1`` below 2.0.0."""
    return _bumped(prefix, min(1, len(prefix) - 1))


def _bumped(prefix: tuple[int, ...], index: int) -> Version:
    parts = [*prefix[:index], prefix[index] + 1, 0, 0]
    return (parts[0], parts[1], parts[2])


def _prefix(text: str) -> tuple[int, ...] | None:
    match = re.match(r"^v?(\d+(?:\.\d+)*)", text)
    return tuple(int(part) for part in match.group(1).split("."))[:3] if match else None


def _version(text: str) -> Version | None:
    try:
        return parse_version(text)
    except ValueError:
        return None
