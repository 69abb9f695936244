"""The identity of one step call as a number: what the shim records beside a cache entry and checks on a hit.

A call's record is a list of 32-bit *slots*, packed into one int (the
dictionary it travels in holds ints; JSON keeps big ones exactly). It is made
when the call starts, before its body can change its arguments:

* slot 0: the step's name, its wrapper identity (1.20+: MAF's own, which
  covers its code; before: its module and qualified name) and its parameter
  names;
* then one slot per bound argument (defaults filled in, the run context
  left out), and for each argument that is a pydantic model or a dataclass
  one slot per field, so that a mismatch can name the fields that differ
  (never their values).

Only calls MAF keys by their order are recorded (a key made from MAF's
fingerprint of the arguments, or from ``replay_key=``, names the call).

An argument is digested from a canonical form (how, decided once per type):
pydantic models and dataclasses by their class and fields (each field the
same way, recursively; a model's extra fields too), enums by class and value,
containers item by item (sets and dicts in a sorted order), scalars by type
and ``repr``, anything else by ``pickle``. One that cannot be pickled makes
the call *undigestable*: it is recorded as such and never checked. The
packed value carries its own length (a leading 1 bit), so a record made for
a call of another shape never equals one of this shape.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import pickle
import zlib
from typing import Any

MAX_SLOTS = 64
UNDIGESTABLE = 1  # a record value no packed list of slots can have (those are at least 2**32)
_CONTEXT = object()  # the run context's parameter: left out


class Undigestable(Exception):
    """An argument with no canonical form (it cannot be pickled)."""


# How each type's values are digested, decided once per type: "scalar", "enum", "model", "dataclass",
# "sequence", "set", "dict", "bytes" or "other" (pickle).
_KINDS: dict[type, str] = {kind: "scalar" for kind in (int, str, float, bool, complex, type(None))}
_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}
# The exact scalar types' canonical prefix (canonical() gives them the same form: "int:" + repr).
_SCALAR_PREFIX: dict[type, bytes] = {kind: f"{kind.__qualname__}:".encode() for kind in (int, str, float, bool, complex)}


def _kind_of(kind: type) -> str:
    found = _KINDS.get(kind)
    if found is None:
        if issubclass(kind, enum.Enum):
            found = "enum"
        elif isinstance(getattr(kind, "__pydantic_fields__", None), dict) and callable(
                getattr(kind, "model_dump_json", None)):
            found = "model"
        elif dataclasses.is_dataclass(kind):
            found = "dataclass"
        elif issubclass(kind, (bool, int, float, complex, str)):
            found = "scalar"
        elif issubclass(kind, (bytes, bytearray)):
            found = "bytes"
        elif issubclass(kind, (list, tuple)):
            found = "sequence"
        elif issubclass(kind, (set, frozenset)):
            found = "set"
        elif issubclass(kind, dict):
            found = "dict"
        else:
            found = "other"
        _KINDS[kind] = found
    return found


def canonical(value: Any) -> bytes:
    """A byte form of ``value`` that is equal for equal values, in any process (raises Undigestable)."""
    kind = type(value)
    how = _KINDS.get(kind) or _kind_of(kind)
    if how == "scalar":
        return f"{kind.__qualname__}:{value!r}".encode("utf-8", "surrogatepass")
    if how == "model" or how == "dataclass":
        return _record_prefix(kind) + b",".join(_field_forms(value, field_names(kind) or ()))
    if how == "enum":
        return f"enum:{_class_name(value)}:".encode() + canonical(value.value)
    if how == "sequence":
        return f"{kind.__name__}[".encode() + b",".join(canonical(item) for item in value) + b"]"
    if how == "set":
        return f"{kind.__name__}{{".encode() + b",".join(sorted(canonical(item) for item in value)) + b"}"
    if how == "dict":
        items = sorted(canonical(key) + b":" + canonical(item) for key, item in value.items())
        return b"dict{" + b",".join(items) + b"}"
    if how == "bytes":
        return b"bytes:" + bytes(value)
    try:
        return f"pickle:{_class_name(value)}:".encode() + pickle.dumps(value, protocol=4)
    except Exception as exc:  # locks, sockets, generators, objects with unpicklable state
        raise Undigestable(f"{kind.__name__}: {exc}") from None


def _class_name(value: Any) -> str:
    return f"{type(value).__module__}.{type(value).__qualname__}"


def _field_forms(value: Any, names: tuple[str, ...]) -> list[bytes]:
    forms = []
    for name in names:
        field = getattr(value, name, None)
        prefix = _SCALAR_PREFIX.get(type(field))
        forms.append(canonical(field) if prefix is None else prefix + repr(field).encode("utf-8", "surrogatepass"))
    if _KINDS[type(value)] == "model":
        extra = value.__pydantic_extra__  # a model's extra="allow" fields, by name
        if extra:
            forms.append(canonical(extra))
    return forms


_PREFIXES: dict[type, bytes] = {}


def _record_prefix(kind: type) -> bytes:
    prefix = _PREFIXES.get(kind)
    if prefix is None:
        prefix = _PREFIXES[kind] = f"{_kind_of(kind)}:{kind.__module__}.{kind.__qualname__}:".encode()
    return prefix


def field_names(kind: type) -> tuple[str, ...] | None:
    """The field names of a pydantic model or dataclass type, in definition order, else None."""
    if kind in _FIELD_NAMES:
        return _FIELD_NAMES[kind]
    how = _KINDS.get(kind) or _kind_of(kind)
    names: tuple[str, ...] | None = None
    if how == "model":
        names = tuple(kind.__pydantic_fields__)
    elif how == "dataclass":
        names = tuple(f.name for f in dataclasses.fields(kind))
    _FIELD_NAMES[kind] = names
    return names


class CallShape:
    """What one step's calls are bound against: its parameters, their defaults, the run context's name."""

    __slots__ = ("names", "positional", "defaults", "context_name", "identity_slot")

    def __init__(self, wrapper: Any) -> None:
        signature: inspect.Signature = getattr(wrapper, "_signature", None) or inspect.signature(wrapper._func)
        parameters = list(signature.parameters.values())
        self.names = tuple(p.name for p in parameters)
        self.defaults = {p.name: p.default for p in parameters if p.default is not inspect.Parameter.empty}
        self.context_name = getattr(wrapper, "_ctx_param_name", None)
        self.positional = tuple(name for name in self.names if name != self.context_name)
        identity = getattr(wrapper, "_wrapper_identity", None)
        if not isinstance(identity, str):
            function = wrapper._func
            identity = f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', '?')}"
        self.identity_slot = zlib.crc32(f"{wrapper.name}\0{identity}\0{','.join(self.names)}".encode("utf-8", "surrogatepass"))

    def bound(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[tuple[str, Any]]:
        """(name, value) of each argument the body receives, in parameter order (defaults filled in)."""
        positional = self.positional
        if not kwargs and len(args) == len(positional):  # every argument passed by position: the common call
            return list(zip(positional, args))
        values: dict[str, Any] = dict(self.defaults)
        for name, value in zip(positional, args):
            values[name] = value
        values.update(kwargs)
        if len(args) > len(positional):  # *args: the rest, in order
            values["*"] = args[len(positional):]
        return [(name, values[name]) for name in (*self.names, "*") if name in values and name != self.context_name]


def _slots_and_naming(shape: CallShape, args: tuple[Any, ...], kwargs: dict[str, Any]
                      ) -> tuple[list[int], list[tuple[str, ...]]]:
    slots = [shape.identity_slot]
    field_slots: list[int] = []
    naming = []
    for name, value in shape.bound(args, kwargs):
        kind = type(value)
        fields = _FIELD_NAMES[kind] if kind in _FIELD_NAMES else field_names(kind)
        if fields is None:
            slots.append(zlib.crc32(canonical(value)))
            naming.append((name,))
            continue
        forms = _field_forms(value, fields)  # each field once: its own slot, and the argument's from all
        slots.append(zlib.crc32(_record_prefix(kind) + b",".join(forms)))
        field_slots += [zlib.crc32(form) for form in forms[:len(fields)]]
        naming.append((name, *fields))
    return slots + field_slots, naming


def record_call(shape: CallShape, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """The packed record of one call: a 1 bit, then its 32-bit slots (raises Undigestable).

    The leading bit makes the length part of the value, so records of calls of other shapes never equal.
    The same slots as ``_slots_and_naming`` (which also names them), in one tight pass: this runs once
    per step call.
    """
    slots = [shape.identity_slot]
    field_slots: list[int] = []
    crc32 = zlib.crc32
    bound = zip(shape.positional, args) if not kwargs and len(args) == len(shape.positional) \
        else shape.bound(args, kwargs)
    for _, value in bound:
        kind = type(value)
        prefix = _SCALAR_PREFIX.get(kind)
        if prefix is not None:
            slots.append(crc32(prefix + repr(value).encode("utf-8", "surrogatepass")))
            continue
        fields = _FIELD_NAMES[kind] if kind in _FIELD_NAMES else field_names(kind)
        if fields is None:
            slots.append(crc32(canonical(value)))
            continue
        forms = _field_forms(value, fields)
        slots.append(crc32(_record_prefix(kind) + b",".join(forms)))
        field_slots += [crc32(form) for form in forms[:len(fields)]]
    slots += field_slots
    if len(slots) > MAX_SLOTS:  # a record stays a few hundred bytes: fold the fields, then the arguments
        slots = slots[:len(slots) - len(field_slots)]
        if len(slots) > MAX_SLOTS:
            slots = [slots[0], zlib.crc32(b"".join(slot.to_bytes(4, "big") for slot in slots[1:]))]
    packed = 1
    for slot in slots:
        packed = (packed << 32) | slot
    return packed


def unpack(value: int) -> list[int] | None:
    """The slots of a packed record (None for a value no record has)."""
    if value < 1 << 32 or (value.bit_length() - 1) % 32:
        return None
    slots = []
    while value > 1:
        slots.append(value & 0xFFFFFFFF)
        value >>= 32
    return slots[::-1]


def differences(shape: CallShape, args: tuple[Any, ...], kwargs: dict[str, Any], recorded: int) -> list[str]:
    """What differs between this call and the one *recorded*: names of arguments and fields, never values."""
    slots, naming = _slots_and_naming(shape, args, kwargs)
    if len(slots) > MAX_SLOTS:
        return ["the arguments (too many to name)"]
    theirs = unpack(recorded)
    if theirs is None or len(theirs) != len(slots):
        return ["the arguments' shape (the step's parameters, or a model's fields)"]
    labels = ["the step's definition (its name, code or parameters)"]
    labels += [f"argument {names[0]!r}" for names in naming]
    labels += [f"field {names[0]}.{field}" for names in naming for field in names[1:]]
    return [label for label, mine, other in zip(labels, slots, theirs) if mine != other]
