"""``case`` patterns in the value-flow interpreter: the names a pattern binds get the values matched there.

A pattern binds as an assignment does (``a, *b = x``, ``fn = d["handler"]``, ``fn = x.handler``):
a sequence pattern takes the subject's items by position (a sequence of another known length does not
match, so it binds nothing there), a mapping pattern the items at its keys, a class pattern the
subject's attributes, positional ones through the class' ``__match_args__`` (a builtin class such as
``list`` or ``str`` matches its one positional pattern against the subject itself); the alternatives
of an or-pattern each bind, and a name holds what any of them gave it. A capture that got no value
binds unknown, as an unpacking does.

``outcome`` tells whether a pattern surely matches the subject's values, surely does not, or may: a
literal or value pattern against known literals or enum members, a class pattern against instances
whose classes are known, a sequence or mapping pattern against values that are no sequence or no
mapping. The ``match`` statement runs only the cases that may match, as ``if`` does with a known test.
"""

from __future__ import annotations

from typing import Callable

from steplint.analysis.interpret_shared import Frame, SessionApi, container_key, is_key, join_envs
from steplint.analysis.values import (
    ANY,
    EMPTY,
    ONLY_UNKNOWN,
    UNKNOWN,
    ClassValue,
    ConstValue,
    ContainerValue,
    ExternalValue,
    InstanceValue,
    Values,
    bounded,
)
from steplint.core.summary import (
    CapturePattern,
    ClassPattern,
    MappingPattern,
    OrPattern,
    PatternForm,
    SequencePattern,
    ValuePattern,
)

#: Containers a sequence pattern never matches (Python: not a ``collections.abc.Sequence``).
_NOT_SEQUENCES = frozenset({"dict", "set"})


class Patterns:
    """Binds the names of one pattern from the subject's values; each form has its binder (``_BINDERS``)."""

    def __init__(self, session: SessionApi):
        self.session = session
        self._shown: Values = EMPTY

    def bind_pattern(self, pattern: PatternForm, values: Values, frame: Frame) -> None:
        binder = _BINDERS.get(type(pattern))
        if binder is not None:
            binder(self, pattern, values, frame)

    def _capture(self, pattern: CapturePattern, values: Values, frame: Frame) -> None:
        if pattern.inner is not None:
            self.bind_pattern(pattern.inner, values, frame)
        if pattern.name:
            self.session.bind(pattern.name, values or ONLY_UNKNOWN, frame)

    def _alternatives(self, pattern: OrPattern, values: Values, frame: Frame) -> None:
        """Every alternative binds the same names; each that may match gives them its values."""
        saved, joined = frame.env, None
        candidates = [a for a in pattern.alternatives if self.outcome(a, values, frame) is not False]
        for alternative in candidates or pattern.alternatives:
            frame.env = dict(saved)
            self.bind_pattern(alternative, values, frame)
            joined = frame.env if joined is None else join_envs(joined, frame.env)
        frame.env = joined if joined is not None else saved

    def _sequence(self, pattern: SequencePattern, values: Values, frame: Frame) -> None:
        for index, item in enumerate(pattern.items):
            picked: set = set()
            for value in values:
                picked.update(self._sequence_item(pattern, index, value, frame))
            self.bind_pattern(item, bounded(picked), frame)

    def _sequence_item(self, pattern: SequencePattern, index: int, value: object, frame: Frame) -> Values:
        session = self.session
        count, star = len(pattern.items), pattern.star
        if isinstance(value, ContainerValue) and value.kind in ("list", "tuple") and value.length >= 0:
            if value.length != count and (star < 0 or value.length < count - 1):
                return EMPTY  # this sequence's length does not match the pattern's
            if star < 0 or index < star:
                return session.read_cell(value, index)
            if index > star:
                return session.read_cell(value, value.length - (count - index))
            middle = ContainerValue("list", (*value.site, "star", index), session.id, value.length - count + 1)
            for position in range(value.length - count + 1):
                session.write_cell(middle, position, session.read_cell(value, index + position), frame, exact=True)
            return frozenset({middle})
        if isinstance(value, ContainerValue):
            return EMPTY if value.kind in _NOT_SEQUENCES else session.read_all_cells(value)
        if isinstance(value, ConstValue):
            return EMPTY  # str and bytes are not matched as sequences
        if value is UNKNOWN:
            return ONLY_UNKNOWN
        return session.iterate(frozenset({value}), frame)  # type: ignore[arg-type]

    def _mapping(self, pattern: MappingPattern, values: Values, frame: Frame) -> None:
        session = self.session
        mappings = frozenset(v for v in values if not (isinstance(v, ContainerValue) and v.kind != "dict")
                             and not isinstance(v, ConstValue))
        for key, item in zip(pattern.keys, pattern.values):
            self.bind_pattern(item, session.item(mappings, session.expr(key, frame), frame) if mappings else EMPTY, frame)
        if pattern.rest:
            # ``**rest``: the subject's other items, the keys the pattern names left out
            named = {container_key(k) for key in pattern.keys for k in session.expr(key, frame) if is_key(k)}
            site = (frame.unit.module.path, frame.unit.summary.qualname, "rest", pattern.rest, len(pattern.keys))
            rest = ContainerValue("dict", site, session.id)
            for mapping in mappings:
                if not isinstance(mapping, ContainerValue):
                    session.write_cell(rest, ANY, ONLY_UNKNOWN, frame)
                    continue
                for key in session.container_keys(mapping):
                    if key not in named:
                        session.write_cell(rest, key, session.read_cell(mapping, key), frame)
            session.bind(pattern.rest, frozenset({rest}), frame)

    def _class(self, pattern: ClassPattern, values: Values, frame: Frame) -> None:
        session = self.session
        classes = session.expr(pattern.cls, frame)
        if len(pattern.positional) == 1 and classes and all(_self_matching(cls) for cls in classes):
            self.bind_pattern(pattern.positional[0], values, frame)  # ``list([a])``, ``str(s)``: the subject itself
            return
        matched = self._instances_of(classes, values)
        names = self._match_args(classes, len(pattern.positional), frame)
        for index, item in enumerate(pattern.positional):
            name = names[index] if names is not None else None
            self.bind_pattern(item, session.attribute(matched, name, frame) if name else ONLY_UNKNOWN, frame)
        for name, item in pattern.keywords:
            self.bind_pattern(item, session.attribute(matched, name, frame) if matched else EMPTY, frame)

    def _instances_of(self, classes: Values, values: Values) -> Values:
        """The subject's values an ``isinstance`` check against ``classes`` may pass (instances of other classes do not)."""
        if not classes or any(not isinstance(cls, ClassValue) for cls in classes):
            return values
        return frozenset(v for v in values if not isinstance(v, InstanceValue)
                         or any(cls in self.session.mro(v.cls) for cls in classes))

    def _match_args(self, classes: Values, count: int, frame: Frame) -> list[str] | None:
        """The attribute names ``__match_args__`` gives the first ``count`` positions, when every class agrees."""
        if not count:
            return []
        found: list[str] | None = None
        for cls in classes:
            if not isinstance(cls, ClassValue):
                return None
            items = self.session.exact_items(self.session.attribute(frozenset({cls}), "__match_args__", frame))
            names = [next(iter(item)).value if len(item) == 1 and isinstance(next(iter(item)), ConstValue) else None
                     for item in items or ()]
            if len(names) < count or any(not isinstance(name, str) for name in names[:count]):
                return None
            if found is not None and found != names[:count]:
                return None
            found = names[:count]  # type: ignore[assignment]
        return found


    # --- what a pattern matches ---------------------------------------------------------------

    def outcome(self, pattern: PatternForm, values: Values, frame: Frame, shown: Values = EMPTY) -> bool | None:
        """True: ``pattern`` surely matches a subject holding ``values``; False: surely not; None: it may. ``shown``:
        the lists and tuples written as the subject itself, whose length and items are what they show."""
        saved, self._shown = self._shown, shown
        try:
            decide = _OUTCOMES.get(type(pattern))
            return decide(self, pattern, values, frame) if decide is not None else None
        finally:
            self._shown = saved

    def _capture_outcome(self, pattern: CapturePattern, values: Values, frame: Frame) -> bool | None:
        return True if pattern.inner is None else self.outcome(pattern.inner, values, frame)

    def _value_outcome(self, pattern: ValuePattern, values: Values, frame: Frame) -> bool | None:
        wanted = self.session.expr(pattern.value, frame)
        if len(wanted) != 1 or not values or not all(is_key(v) for v in (*wanted, *values)):
            return None
        (target,) = wanted
        if pattern.identity:  # ``case None``/``True``/``False``: ``is``, so True is not 1
            equal = [v == target for v in values]
        else:
            equal = [container_key(v) == container_key(target) for v in values]  # type: ignore[arg-type]
        return True if all(equal) else False if not any(equal) else None

    def _class_outcome(self, pattern: ClassPattern, values: Values, frame: Frame) -> bool | None:
        """Decided only between plain classes of the project (``_plain``): ``isinstance`` also asks a metaclass,
        an ABC's registry and ``__subclasshook__``, and ``__new__`` or ``__class__ =`` decide what an object is."""
        classes = self.session.expr(pattern.cls, frame)
        if not classes or not values or any(not isinstance(c, ClassValue) or not self._plain(c) for c in classes) \
                or any(not isinstance(v, InstanceValue) or not self._plain(v.cls)
                       or self.session.read_cell(v, "__class__") for v in values):
            return None
        matched = self._instances_of(classes, values)
        if not matched:
            return False
        return True if len(matched) == len(values) and not pattern.positional and not pattern.keywords else None

    def _sequence_outcome(self, pattern: SequencePattern, values: Values, frame: Frame) -> bool | None:
        """False where no value is a sequence the pattern's length and items can match (``("fast", f)`` against
        the subject ``("slow", fetch)`` written there); else it may match."""
        count, star = len(pattern.items), pattern.star
        for value in values:
            if isinstance(value, ContainerValue) and value.kind in ("list", "tuple") and value not in self._shown:
                return None  # read through a name: its length or items may have changed since it was made
            if isinstance(value, ContainerValue) and value.kind in ("list", "tuple") and value.length >= 0:
                if value.length == count and star < 0:
                    items = (self.session.read_cell(value, index) for index in range(count))
                    if all(self.outcome(item, read, frame) is not False for item, read in zip(pattern.items, items)):
                        return None
                elif star >= 0 and value.length >= count - 1:
                    return None
            elif not (isinstance(value, ConstValue) or isinstance(value, ContainerValue) and value.kind in _NOT_SEQUENCES):
                return None
        return False if values else None

    def _mapping_outcome(self, pattern: MappingPattern, values: Values, frame: Frame) -> bool | None:
        """False where no value is a dict, or every dict holds, under a key the pattern names, only values that
        key's pattern surely does not match (``{"type": "ship"}`` against ``{"type": "refund", ...}``)."""
        for value in values:
            if isinstance(value, ConstValue) or isinstance(value, ContainerValue) and value.kind != "dict":
                continue
            if not (isinstance(value, ContainerValue) and self._item_rules_out(pattern, value, frame)):
                return None
        return False if values else None

    def _item_rules_out(self, pattern: MappingPattern, mapping: ContainerValue, frame: Frame) -> bool:
        for key, item in zip(pattern.keys, pattern.values):
            keys = self.session.expr(key, frame)
            if len(keys) != 1 or not is_key(next(iter(keys))):
                continue
            held = self.session.item(frozenset({mapping}), keys, frame)
            if held and self.outcome(item, held, frame) is False:
                return True
        return False

    def _plain(self, cls: ClassValue) -> bool:
        """A class whose instances ``isinstance`` judges by the class order alone, and that makes its own instances:
        every class in its order is the project's (``object`` aside), none has a metaclass or defines ``__new__``."""
        for owner in self.session.mro(cls):
            if isinstance(owner, ExternalValue):
                return owner.name == "builtins.object"
            if not isinstance(owner, ClassValue) or self.session.read_cell(owner, "__new__") \
                    or self._has_metaclass(owner):
                return False
        return True

    def _has_metaclass(self, cls: ClassValue) -> bool:
        summary = self.session.engine.classes.get((cls.path, cls.qualname))
        return summary is None or any(name == "metaclass" for name, _ in summary.keywords)

    def _alternatives_outcome(self, pattern: OrPattern, values: Values, frame: Frame) -> bool | None:
        outcomes = [self.outcome(alternative, values, frame) for alternative in pattern.alternatives]
        return True if True in outcomes else False if all(o is False for o in outcomes) else None


#: The builtin classes whose one positional pattern matches the subject itself (PEP 634).
_SELF_MATCHING = frozenset(f"builtins.{name}" for name in (
    "bool", "bytearray", "bytes", "dict", "float", "frozenset", "int", "list", "set", "str", "tuple"))


def _self_matching(cls: object) -> bool:
    return isinstance(cls, ExternalValue) and cls.name in _SELF_MATCHING


#: What each pattern form tells of a match (a form not listed: it may match).
_OUTCOMES: dict[type, Callable[..., bool | None]] = {
    CapturePattern: Patterns._capture_outcome,
    ValuePattern: Patterns._value_outcome,
    ClassPattern: Patterns._class_outcome,
    SequencePattern: Patterns._sequence_outcome,
    MappingPattern: Patterns._mapping_outcome,
    OrPattern: Patterns._alternatives_outcome,
}

#: How each pattern form binds (a form not listed, a literal or value pattern, binds nothing).
_BINDERS: dict[type, Callable[[Patterns, PatternForm, Values, Frame], None]] = {
    CapturePattern: Patterns._capture,
    SequencePattern: Patterns._sequence,
    MappingPattern: Patterns._mapping,
    ClassPattern: Patterns._class,
    OrPattern: Patterns._alternatives,
}
