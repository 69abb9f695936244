"""Class-attribute patches that can be undone exactly.

Patches go on the classes (not on instances or module names), so steps
decorated before ``install()`` are covered too, and ``restore()`` puts back
the very objects that were there, leaving MAF as if never patched.
"""

from __future__ import annotations

from typing import Any

# Marks every function the shim installs, so a second copy of the shim (or a
# reloaded module that lost its state) can tell MAF is already patched.
SHIM_MARKER = "__steplint_runtime_shim__"

_ABSENT = object()


def is_shim_function(value: Any) -> bool:
    """Whether *value* is a function installed by the shim."""
    return getattr(value, SHIM_MARKER, False) is True


class PatchSet:
    """Attributes replaced on classes, with what was there before."""

    def __init__(self) -> None:
        self._replaced: list[tuple[type, str, Any]] = []

    def replace(self, owner: type, name: str, replacement: Any) -> None:
        """Set ``owner.name`` to *replacement*, remembering the class's own attribute."""
        setattr(replacement, SHIM_MARKER, True)
        self._replaced.append((owner, name, owner.__dict__.get(name, _ABSENT)))
        setattr(owner, name, replacement)

    def originals(self, owner: type, exclude: tuple[str, ...] = ()) -> dict[str, Any]:
        """Name -> what *owner* defined there before the first replacement (for attributes it defined itself)."""
        found: dict[str, Any] = {}
        for replaced_owner, name, original in self._replaced:
            if replaced_owner is owner and name not in found and name not in exclude:
                found[name] = original
        return {name: original for name, original in found.items() if original is not _ABSENT}

    def restore(self) -> None:
        """Put back every replaced attribute, newest first."""
        while self._replaced:
            owner, name, original = self._replaced.pop()
            if original is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, original)
