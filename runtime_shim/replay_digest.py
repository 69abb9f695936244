"""The identity of one step call as a number: what the shim records beside a cache entry and checks on a hit.

A call's record is a list of 32-bit *slots*, packed into one int (the
dictionary it travels in holds ints; JSON keeps big ones exactly). It is made
when the call starts, before its body can change its arguments:

* slot 0: the step's name, its wrapper identity (1.20+: MAF's own, which
  covers its code; before: its module's last name and qualified name) and its
  parameter names;
* then one slot per bound argument (defaults filled in, ``*args`` as one
  sequence, ``**kwargs`` as one mapping, the run context left out), and for
  each argument that is a pydantic model or a dataclass one slot per field,
  so that a mismatch can name the fields that differ (never their values).

Only calls MAF keys by their order are recorded (a key made from MAF's
fingerprint of the arguments, or from ``replay_key=``, names the call).

An argument is digested from a canonical form, decided once per type (a
handler in ``_HANDLERS``), that is the same in any process and survives
MAF's checkpoint round trip (``FileCheckpointStorage`` gives back a str or
int subclass, a str- or int-valued enum as the plain value, a dict's keys
as ``str(key)``):

* str, int, float, bool, None, complex: by base type and content (never
  ``repr``: a subclass may mask it); an enum by its value;
* bytes-like: by a SHA-256 digest of the bytes, hashed once;
* list and tuple alike, item by item; sets by their items' forms sorted;
  dicts by ``str(key)`` (scalar and enum keys) and value, sorted;
* pydantic models: class, fields, extra fields and private attributes
  (computed fields are functions of these and are left out); dataclasses:
  class and fields. A class is named by its module's last name and its
  qualified name, so a script and the same file imported agree;
* any other object that defines ``__eq__``: by class and what
  ``__reduce_ex__`` says rebuilds it, each part canonically (so a set of str
  in its state is sorted, not in hash-seed order).

Everything else (an object compared by identity, one that cannot be
reduced, a cycle) makes the call *undigestable*: recorded as such and never
checked. The packed value carries its own length (a leading 1 bit), so a
record made for a call of another shape never equals one of this shape.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import inspect
import operator
import os
import sys
import weakref
import zlib
from collections.abc import Callable, Sequence
from typing import Any

MAX_SLOTS = 64
UNDIGESTABLE = 1  # a record value no packed list of slots can have (those are at least 2**32)


class Undigestable(Exception):
    """An argument with no canonical form that is the same in every process."""


Handler = Callable[[Any], bytes]


def module_identity(name: str | None) -> str:
    """A module's last name; for ``__main__``, the name its file has when imported (a script's stem)."""
    if name == "__main__":
        main = sys.modules.get("__main__")
        spec = getattr(main, "__spec__", None)
        if spec is not None and spec.name:
            name = spec.name
        else:
            path = getattr(main, "__file__", None) or "__main__"
            name = os.path.splitext(os.path.basename(path))[0]
    return (name or "?").rpartition(".")[2]


class TypeTable:
    """What the digest decided about each type, holding the types weakly (a class made per run is not kept alive).

    A dictionary keyed by the type's id whose entry is checked through a weak reference to the type: a lookup is
    a dictionary get and a call, where ``WeakKeyDictionary``'s Python-level methods cost several times that, on
    every step call that passes a model. An entry goes when its type does (the reference's callback).
    """

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: dict[int, tuple[weakref.ref[type], Any]] = {}  # id(type) -> (weak reference, value)

    def get(self, kind: type, default: Any = None) -> Any:
        entry = self.entries.get(id(kind))
        if entry is None or entry[0]() is not kind:
            return default
        return entry[1]

    def __setitem__(self, kind: type, value: Any) -> None:
        key, entries = id(kind), self.entries

        def forget(reference: weakref.ref[type]) -> None:
            entry = entries.get(key)
            if entry is not None and entry[0] is reference:
                entries.pop(key, None)

        entries[key] = (weakref.ref(kind, forget), value)

    def __len__(self) -> int:
        return len(self.entries)


def class_identity(kind: type) -> bytes:
    found = _IDENTITIES.get(kind)
    if found is None:
        found = f"{module_identity(kind.__module__)}.{kind.__qualname__}".encode("utf-8", "surrogatepass")
        _IDENTITIES[kind] = found
    return found


def _text(value: str) -> bytes:
    return str.encode(value, "utf-8", "surrogatepass")


def _str(value: Any) -> bytes:
    return b"s:" + _text(value)


def _int(value: Any) -> bytes:
    return b"i:" + int.to_bytes(value, (int.bit_length(value) + 8) // 8, "big", signed=True)


def _bool(value: Any) -> bytes:
    return b"b:1" if value else b"b:0"


def _float(value: Any) -> bytes:
    return b"f:" + float.hex(value).encode()


def _complex(value: Any) -> bytes:
    return b"c:" + float.hex(value.real).encode() + b"," + float.hex(value.imag).encode()


def _none(value: Any) -> bytes:
    return b"n:"


def _bytes(value: Any) -> bytes:
    return b"y:" + hashlib.sha256(value).digest()[:16]  # SHA-256: hardware-accelerated where BLAKE2b is not


def _enum(value: Any) -> bytes:
    return canonical(value.value)


def _sequence(value: Any) -> bytes:
    return b"l[" + b",".join([canonical(item) for item in value]) + b"]"


def _set(value: Any) -> bytes:
    return b"e{" + b",".join(sorted([canonical(item) for item in value])) + b"}"


_STR_KEYED = (str, int, float, bool, type(None), enum.Enum)


def _key(key: Any) -> bytes:
    """A dict key as MAF's JSON encoding leaves it: ``str(key)`` for scalars and enums."""
    return canonical(str(key)) if isinstance(key, _STR_KEYED) else canonical(key)


def _dict(value: Any) -> bytes:
    return b"d{" + b",".join(sorted([_key(key) + b":" + canonical(item) for key, item in value.items()])) + b"}"


def _model(value: Any) -> bytes:
    forms = _field_forms(value, field_names(type(value)) or (), True)
    return b"m:" + class_identity(type(value)) + b":" + b",".join(forms)


def _dataclass(value: Any) -> bytes:
    forms = _field_forms(value, field_names(type(value)) or (), False)
    return b"D:" + class_identity(type(value)) + b":" + b",".join(forms)


def _type(value: Any) -> bytes:
    return b"t:" + class_identity(value)


def _reduced(value: Any) -> bytes:
    """An object with value equality: its class and what rebuilds it (``__reduce_ex__``), each part canonically."""
    kind = type(value)
    if kind.__eq__ is object.__eq__:
        raise Undigestable(f"{kind.__qualname__} compares by identity")
    reduced = value.__reduce_ex__(4)
    if isinstance(reduced, str):
        return b"g:" + class_identity(kind) + b":" + _text(reduced)
    function, arguments, *rest = reduced
    parts = [b"r:" + class_identity(kind), _callable(function), canonical(tuple(arguments))]
    state, items, pairs = (list(rest) + [None, None, None])[:3]
    parts.append(b"n:" if state is None else canonical(state))
    parts.append(b"n:" if items is None else canonical(list(items)))
    parts.append(b"n:" if pairs is None else canonical(dict(pairs)))
    return b";".join(parts)


def _callable(function: Any) -> bytes:
    if isinstance(function, type):
        return _type(function)
    name = getattr(function, "__qualname__", None)
    if not isinstance(name, str):
        raise Undigestable(f"cannot name {type(function).__qualname__}")
    return b"F:" + _text(f"{module_identity(getattr(function, '__module__', None))}.{name}")


def _other(value: Any) -> bytes:
    return _reduced(value)


# How each type's values are digested: the exact built-in types here, any other type decided once (weakly held,
# so a class made per run is not kept alive).
_HANDLERS: dict[type, Handler] = {
    str: _str, int: _int, bool: _bool, float: _float, complex: _complex, type(None): _none,
    bytes: _bytes, bytearray: _bytes, memoryview: _bytes, list: _sequence, tuple: _sequence,
    set: _set, frozenset: _set, dict: _dict, type: _type,
}
_DECIDED = TypeTable()  # type -> Handler
_RECORD_FIELDS = TypeTable()  # type -> RecordFields (record_fields)
_IDENTITIES = TypeTable()  # type -> class_identity
# Checked in order: the first base a type derives from decides (bool before int, enums before str and int).
_BY_BASE: tuple[tuple[type, Handler], ...] = (
    (enum.Enum, _enum), (bool, _bool), (int, _int), (str, _str), (float, _float), (complex, _complex),
    (bytes, _bytes), (bytearray, _bytes), (list, _sequence), (tuple, _sequence), (set, _set),
    (frozenset, _set), (dict, _dict), (type, _type),
)


def _is_model(kind: type) -> bool:
    return isinstance(getattr(kind, "__pydantic_fields__", None), dict) and callable(getattr(kind, "model_dump_json", None))


def handler_of(kind: type) -> Handler:
    found = _HANDLERS.get(kind) or _DECIDED.get(kind)
    if found is None:
        found = _decide(kind)
        _DECIDED[kind] = found
    return found


def _decide(kind: type) -> Handler:
    if _is_model(kind):
        return _model
    if dataclasses.is_dataclass(kind):
        return _dataclass
    for base, handler in _BY_BASE:
        if issubclass(kind, base):
            return handler
    return _other


def canonical(value: Any) -> bytes:
    """A byte form of ``value`` that is equal for equal values, in any process (raises Undigestable)."""
    kind = type(value)
    handler = _HANDLERS.get(kind) or handler_of(kind)
    return handler(value)


def _field_forms(value: Any, names: tuple[str, ...], model: bool) -> list[bytes]:
    """One form per named field, then (a *model*'s) extra fields and private attributes, each when present."""
    forms = [canonical(getattr(value, name, None)) for name in names]
    if model:
        extra = getattr(value, "__pydantic_extra__", None)  # extra="allow" fields, by name
        if extra:
            forms.append(b"x" + canonical(extra))
        private = getattr(value, "__pydantic_private__", None)  # PrivateAttr values
        if private:
            forms.append(b"p" + canonical(private))
    return forms


# A record type's field names in definition order, whether it is a pydantic model (else a dataclass), and what
# its argument slot's form starts with (b"M:<class identity>:").
RecordFields = tuple[tuple[str, ...], bool, bytes]
_UNDECIDED = object()


def record_fields(kind: type) -> RecordFields | None:
    """The field names of a pydantic model or dataclass type and whether it is a model; None for any other type."""
    if kind in _HANDLERS:
        return None
    found = _RECORD_FIELDS.get(kind, _UNDECIDED)
    if found is not _UNDECIDED:
        return found
    if _is_model(kind):
        found = (tuple(kind.__pydantic_fields__), True, b"M:" + class_identity(kind) + b":")
    elif dataclasses.is_dataclass(kind):
        found = (tuple(f.name for f in dataclasses.fields(kind)), False, b"M:" + class_identity(kind) + b":")
    else:
        found = None
    _RECORD_FIELDS[kind] = found
    return found


def field_names(kind: type) -> tuple[str, ...] | None:
    """The field names of a pydantic model or dataclass type, in definition order, else None."""
    fields = record_fields(kind)
    return None if fields is None else fields[0]


class CallShape:
    """What one step's calls are bound against: its parameters, their defaults, the run context's name."""

    __slots__ = ("names", "positional", "defaults", "context_name", "identity_slot", "var_positional",
                 "var_keyword", "named", "simple")

    def __init__(self, wrapper: Any) -> None:
        signature: inspect.Signature = getattr(wrapper, "_signature", None) or inspect.signature(wrapper._func)
        parameters = list(signature.parameters.values())
        self.context_name = getattr(wrapper, "_ctx_param_name", None)
        kinds = inspect.Parameter
        self.names = tuple(p.name for p in parameters)
        self.defaults = {p.name: p.default for p in parameters if p.default is not kinds.empty}
        self.positional = tuple(p.name for p in parameters if p.name != self.context_name
                                and p.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD))
        self.var_positional = next((p.name for p in parameters if p.kind is kinds.VAR_POSITIONAL), None)
        self.var_keyword = next((p.name for p in parameters if p.kind is kinds.VAR_KEYWORD), None)
        self.named = frozenset(p.name for p in parameters if p.kind not in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD))
        self.simple = len(self.positional) == len(self.named - {self.context_name})  # every parameter positional
        identity = getattr(wrapper, "_wrapper_identity", None)
        if not isinstance(identity, str):
            function = wrapper._func
            identity = f"{module_identity(getattr(function, '__module__', None))}.{getattr(function, '__qualname__', '?')}"
        self.identity_slot = zlib.crc32(_text(f"{wrapper.name}\0{identity}\0{','.join(self.names)}"))

    def bound(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[tuple[str, Any]]:
        """(name, value) of each argument the body receives, in parameter order (defaults filled in; ``*args`` as
        one tuple, ``**kwargs`` as one dict, each only when the step declares it or the call passes some)."""
        positional = self.positional
        if self.simple and not kwargs and len(args) == len(positional):  # the common call
            return list(zip(positional, args))
        values: dict[str, Any] = dict(self.defaults)
        values.update(zip(positional, args))
        rest = args[len(positional):]
        if rest or self.var_positional:
            values[self.var_positional or "*"] = tuple(rest)
        extra = {}
        for name, value in kwargs.items():
            if name in self.named:
                values[name] = value
            else:
                extra[name] = value
        if extra or self.var_keyword:
            values[self.var_keyword or "**"] = extra
        order = (*self.names, "*", "**")
        return [(name, values[name]) for name in order if name in values and name != self.context_name]


def _slots(shape: CallShape, args: tuple[Any, ...], kwargs: dict[str, Any], naming: list[tuple[str, ...]] | None
           ) -> tuple[list[int], int]:
    """The call's slots (the step, each argument, then each model or dataclass field), and how many are fields;
    *naming*, if given, gets the names each argument's slots stand for."""
    slots = [shape.identity_slot]
    field_slots: list[int] = []
    crc32 = zlib.crc32
    for name, value in shape.bound(args, kwargs):
        kind = type(value)
        handler = _HANDLERS.get(kind)
        found = None if handler is not None else record_fields(kind)
        if found is None:
            slots.append(crc32((handler or handler_of(kind))(value)))
            if naming is not None:
                naming.append((name,))
            continue
        fields, model, prefix = found
        forms = _field_forms(value, fields, model)  # each field once: its own slot, and the argument's from all
        slots.append(crc32(prefix + b",".join(forms)))
        field_slots += [crc32(form) for form in forms[:len(fields)]]
        if naming is not None:
            naming.append((name, *fields))
    return slots + field_slots, len(field_slots)


# The handlers quick_record calls beside the int and str it makes inline; with those two, the IMMUTABLE types.
_IMMUTABLE_HANDLERS: dict[type, Handler] = {bool: _bool, float: _float, complex: _complex, type(None): _none,
                                           bytes: _bytes}
_FIELD_HANDLERS: dict[type, Handler] = {int: _int, str: _str, **_IMMUTABLE_HANDLERS}
# Exact types whose values no step body can change (a subclass may add mutable attributes; a tuple may hold a list).
IMMUTABLE = frozenset(_FIELD_HANDLERS)


def record_call(shape: CallShape, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """The packed record of one call: a 1 bit, then its 32-bit slots (raises Undigestable).

    The leading bit makes the length part of the value, so records of calls of other shapes never equal.
    """
    if shape.simple and not kwargs and len(args) == len(shape.positional) < MAX_SLOTS:
        # The common call (positional arguments of built-in types): the same slots as _slots makes, in one pass.
        packed = (1 << 32) | shape.identity_slot
        handlers, crc32 = _HANDLERS, zlib.crc32
        for value in args:
            handler = handlers.get(type(value))
            if handler is None:
                break
            packed = (packed << 32) | crc32(handler(value))
        else:
            return packed
    slots, fields = _slots(shape, args, kwargs, None)
    if len(slots) > MAX_SLOTS:  # a record stays a few hundred bytes: fold the fields, then the arguments
        slots = slots[:len(slots) - fields]
        if len(slots) > MAX_SLOTS:
            slots = [slots[0], zlib.crc32(b"".join(slot.to_bytes(4, "big") for slot in slots[1:]))]
    return pack(slots)




def quick_record(shape: CallShape, args: tuple[Any, ...], kwargs: dict[str, Any]
                 ) -> tuple[int, list[tuple[Any, ...]] | tuple[()]] | None:
    """``record_call`` and ``field_snapshot`` of the commonest calls in one pass: every argument positional, of
    an IMMUTABLE type or a model or dataclass (of a type digested before) whose fields all hold such values and
    that has no extra fields or private attributes. None for any other call. The same record and snapshot as
    the two make (tests/test_replay_digest.py)."""
    if kwargs or not shape.simple or len(args) != len(shape.positional) or len(args) >= MAX_SLOTS:
        return None  # (record_call folds a record of MAX_SLOTS slots or more)
    packed = (1 << 32) | shape.identity_slot
    crc32 = zlib.crc32
    field_slots: list[int] | None = None  # made at the first model or dataclass: most calls have none
    snapshot: list[tuple[Any, ...]] | None = None
    for value in args:
        kind = type(value)
        if kind is int:
            form = b"i:" + value.to_bytes((value.bit_length() + 8) // 8, "big", signed=True)
        elif kind is str:
            form = b"s:" + value.encode("utf-8", "surrogatepass")
        else:
            handler = _IMMUTABLE_HANDLERS.get(kind)
            if handler is not None:
                form = handler(value)
            else:
                entry = _RECORD_FIELDS.entries.get(id(kind))  # _RECORD_FIELDS.get(kind), inlined
                found = entry[1] if entry is not None and entry[0]() is kind else None
                if found is None:  # not a record type, or one not decided yet: record_call decides
                    return None
                names, model, prefix = found
                if model and (getattr(value, "__pydantic_extra__", None)
                              or getattr(value, "__pydantic_private__", None)):
                    return None
                if field_slots is None or snapshot is None:
                    field_slots, snapshot = [], []
                values, forms = [], []
                for name in names:
                    field = getattr(value, name, None)
                    handler = _FIELD_HANDLERS.get(type(field))
                    if handler is None:
                        return None
                    field_form = handler(field)
                    values.append(field)
                    forms.append(field_form)
                    field_slots.append(crc32(field_form))
                form = prefix + b",".join(forms)
                snapshot.append((value, kind, names, values))
        packed = (packed << 32) | crc32(form)
    if field_slots is None or snapshot is None:
        return packed, UNCHANGEABLE
    if len(args) + 1 + len(field_slots) > MAX_SLOTS:
        return None
    for slot in field_slots:
        packed = (packed << 32) | slot
    return packed, snapshot


def pack(slots: Sequence[int]) -> int:
    """32-bit slots as one record: a 1 bit, then the slots (``unpack`` reads them back)."""
    packed = 1
    for slot in slots:
        packed = (packed << 32) | slot
    return packed


# The snapshot of a call whose every argument is of an IMMUTABLE type: no body can change any of them.
UNCHANGEABLE: tuple[()] = ()


def field_snapshot(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[tuple[Any, ...]] | tuple[()] | None:
    """What tells, without a second digest, that a body changed none of the call's arguments: UNCHANGEABLE
    when every one is of an immutable built-in type; else each model or dataclass argument with the values its
    fields, extra fields and private attributes hold now, all of immutable built-in types (a body can only
    rebind them). None where an argument could change in place (a container, another object, a field holding
    one): there only a second digest can tell."""
    if IMMUTABLE.issuperset(map(type, args)) and IMMUTABLE.issuperset(map(type, kwargs.values())):
        return UNCHANGEABLE
    snapshot = []
    for value in (*args, *kwargs.values()):
        kind = type(value)
        if kind in IMMUTABLE:
            continue
        names = field_names(kind)
        if names is None:
            return None
        values = _field_values(value, names)
        if not IMMUTABLE.issuperset(map(type, values)):
            return None
        snapshot.append((value, kind, names, values))
    return snapshot


def _field_values(value: Any, names: tuple[str, ...]) -> list[Any]:
    """The values of ``value``'s fields, then a model's extra fields and private attributes as names and values."""
    values = [getattr(value, name, None) for name in names]
    extra = getattr(value, "__pydantic_extra__", None)
    private = getattr(value, "__pydantic_private__", None)
    if extra or private:
        values += [item for pairs in (extra or {}, private or {}) for pair in pairs.items() for item in pair]
    return values


def unchanged_since(snapshot: list[tuple[Any, ...]]) -> bool:
    """Whether every argument of *snapshot* still holds the very objects it held (so its digest is the same)."""
    for value, kind, names, values in snapshot:
        if type(value) is not kind:
            return False
        if (len(values) == len(names) and not getattr(value, "__pydantic_extra__", None)
                and not getattr(value, "__pydantic_private__", None)):
            for name, held in zip(names, values):  # the common case without a list of the values now
                if getattr(value, name, None) is not held:
                    return False
            continue
        now = _field_values(value, names)
        if len(now) != len(values) or not all(map(operator.is_, now, values)):
            return False
    return True


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
    naming: list[tuple[str, ...]] = []
    slots, _ = _slots(shape, args, kwargs, naming)
    if len(slots) > MAX_SLOTS:
        return ["the arguments (too many to name)"]
    theirs = unpack(recorded)
    if theirs is None or len(theirs) != len(slots):
        return ["the arguments' shape (the step's parameters, or a model's fields)"]
    labels = ["the step's definition (its name, code or parameters)"]
    labels += [f"argument {names[0]!r}" for names in naming]
    labels += [f"field {names[0]}.{field}" for names in naming for field in names[1:]]
    return [label for label, mine, other in zip(labels, slots, theirs) if mine != other]
