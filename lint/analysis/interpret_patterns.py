"""``case`` patterns in the value-flow interpreter: the names a pattern binds get the values matched there.

A pattern binds as an assignment does (``a, *b = x``, ``fn = d["handler"]``, ``fn = x.handler``):
a sequence pattern takes the subject's items by position (a sequence of another known length does not
match, so it binds nothing there), a mapping pattern the items at its keys, a class pattern the
subject's attributes, positional ones through the class' ``__match_args__``. A capture that got no
value binds unknown, as an unpacking does.
"""

from __future__ import annotations

from typing import Callable

from steplint.analysis.interpret_shared import Frame, SessionApi
from steplint.analysis.values import (
    ANY,
    EMPTY,
    ONLY_UNKNOWN,
    UNKNOWN,
    ClassValue,
    ConstValue,
    ContainerValue,
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
)

#: Containers a sequence pattern never matches (Python: not a ``collections.abc.Sequence``).
_NOT_SEQUENCES = frozenset({"dict", "set"})


class Patterns:
    """Binds the names of one pattern from the subject's values; each form has its binder (``_BINDERS``)."""

    def __init__(self, session: SessionApi):
        self.session = session

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
        for alternative in pattern.alternatives:  # every alternative binds the same names: the last one's values win
            self.bind_pattern(alternative, values, frame)

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
            rest = ContainerValue("dict", (frame.unit.module.path, "rest", pattern.rest), session.id)
            session.write_cell(rest, ANY, bounded(set().union(*(session.read_all_cells(v) for v in mappings
                                                                 if isinstance(v, ContainerValue)))), frame)
            session.bind(pattern.rest, frozenset({rest}), frame)

    def _class(self, pattern: ClassPattern, values: Values, frame: Frame) -> None:
        session = self.session
        classes = session.expr(pattern.cls, frame)
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


#: How each pattern form binds (a form not listed, a literal or value pattern, binds nothing).
_BINDERS: dict[type, Callable[[Patterns, PatternForm, Values, Frame], None]] = {
    CapturePattern: Patterns._capture,
    SequencePattern: Patterns._sequence,
    MappingPattern: Patterns._mapping,
    ClassPattern: Patterns._class,
    OrPattern: Patterns._alternatives,
}
