"""A digest of what other modules read of a module's summary, the same in every process.

Another module's analysis reads a module through its summary: its names,
functions, classes and their statements and positions. It never reads the
module's suppression comments or its line count, which only the module's own
findings use. Two summaries with the same digest answer every other module
alike, so an edit that leaves it unchanged (a comment, a blank line at the
end) cannot change another module's findings.

The digest walks the summary's dataclasses field by field; sets are digested
in the order of their items' digests, never in iteration order (a set of
strings iterates in an order that follows the process's hash seed, which is
why a pickle of a summary cannot serve).
"""

from __future__ import annotations

import dataclasses
import hashlib

from steplint.core.summary import ModuleSummary

#: Fields of a module's summary only its own findings read.
_OWN_FIELDS = frozenset({"suppressions", "line_count"})
_PLAIN = (str, int, float, bool, bytes, type(None))


def reader_digest(summary: ModuleSummary) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for field in dataclasses.fields(summary):
        if field.name not in _OWN_FIELDS:
            digest.update(field.name.encode())
            _feed(digest, getattr(summary, field.name))
    return digest.hexdigest()


def _feed(digest: "hashlib._Hash", value: object) -> None:  # noqa: C901 - one branch per kind of value
    kind = type(value)
    if kind in _PLAIN:
        digest.update(f"{kind.__name__}:{value!r};".encode())
    elif kind is tuple or kind is list:
        digest.update(b"(")
        for item in value:  # type: ignore[attr-defined]
            _feed(digest, item)
        digest.update(b")")
    elif kind is frozenset or kind is set:
        digest.update(b"{")
        for part in sorted(_alone(item) for item in value):  # type: ignore[attr-defined]
            digest.update(part)
        digest.update(b"}")
    elif kind is dict:
        digest.update(b"<")
        for part in sorted(_alone(key) + _alone(item) for key, item in value.items()):  # type: ignore[attr-defined]
            digest.update(part)
        digest.update(b">")
    elif dataclasses.is_dataclass(value):
        digest.update(kind.__name__.encode() + b"[")
        for field in dataclasses.fields(value):  # type: ignore[arg-type]
            _feed(digest, getattr(value, field.name))
        digest.update(b"]")
    else:  # a kind the summaries do not make: its text, as it stands
        digest.update(f"{kind.__name__}:{value!r};".encode())


def _alone(value: object) -> bytes:
    digest = hashlib.blake2b(digest_size=16)
    _feed(digest, value)
    return digest.digest()
