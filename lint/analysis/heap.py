"""A session's heap: the cells of the objects the analysis follows, and the module names ``global`` wrote.

An object's cells live in the heap of the session that made it (its ``owner``);
another session that writes into it writes into a layer of its own over them, so
reads see both. An import's layer is seen too by the sessions whose module's
import ran that import (``Session.visible_imports``). Every read is noted for the fixpoint
driver, and every write that adds values tells it what grew (``SessionApi.grew``).
"""

from __future__ import annotations

from steplint.analysis.interpret_shared import Frame, SessionApi
from steplint.analysis.values import (
    ANY, DEFAULT_FACTORY, EMPTY, ContainerValue, SharedTable, Value, Values, bounded, kept,
)
from steplint.core.summary import ModuleSummary

#: An object's keys are a shared frozenset up to this many (most objects have a few, and many the same few: an enum
#: member's ``name`` and ``value``), a set of its own past it (a large dict display adds its keys one by one).
_SHARED_KEYS_UP_TO = 8
_shared_keys = SharedTable(1 << 14)


def _with_key(keys: frozenset | set | None, key: object) -> frozenset | set:
    """``keys`` with ``key`` added."""
    if type(keys) is set:
        keys.add(key)
        return keys
    if keys is not None and key in keys:
        return keys
    grown = frozenset({key}) if keys is None else keys | {key}
    if len(grown) > _SHARED_KEYS_UP_TO:
        return set(grown)
    return _shared_keys.keep(grown, grown)


class Heap:
    """The cells one session wrote: its own objects', and its layer over objects other sessions made."""

    def __init__(self, session: SessionApi):
        self.session = session
        self.observed = session.observed  # the driver's record of what this pass read (cleared, never replaced)
        self.cells: dict[tuple, Values] = {}  # (object, key) -> values
        self.fields: dict[Value, frozenset | set] = {}  # object -> the keys written (``_with_key``)
        self.writers: dict[tuple, int] = {}  # cell -> the unit that last wrote it, or -1 when several did
        self.global_writes: dict[tuple[str, str], Values] = {}  # (module path, name) -> values ``global`` wrote

    def _heaps(self, value: Value) -> tuple["Heap", ...]:
        """The heaps a read of ``value`` consults: its owner's, the layers of the imports this session's module
        sees (its own import's and those of the modules it imports), and this session's own."""
        owner = self.owner_of(value)
        layers = self.session.engine.import_layers
        writers = layers.get(value) if layers else None
        if not writers:
            return (owner, self) if owner is not None and owner is not self else (self,)
        visible = self.session.visible_imports()
        seen = tuple(writer.heap for writer in writers
                     if writer is not self.session and writer.module is not None and writer.module.path in visible)
        return ((owner,) if owner is not None and owner is not self else ()) + seen + (self,)

    def owner_of(self, value: Value) -> "Heap | None":
        """The heap of the session that made ``value``, or None for a value without contents."""
        session = self.session
        owner = getattr(value, "owner", None)
        if owner is not None:
            if owner == session.id:
                return self
            made_by = session.engine.sessions.get(owner)
            return made_by.heap if made_by is not None else None  # type: ignore[return-value]
        frame = getattr(value, "frame", None)
        if frame is not None:
            unit = session.engine.units.get(frame)
            return unit.session.heap if unit is not None else None  # type: ignore[return-value]
        return None

    def read_cell(self, value: Value, key: object) -> Values:
        """Every value the cell held: in its owner's heap, in the layers of the imports this session sees, in this
        session's layer, and any-key writes of a container."""
        self.observed.add((value, key))
        self.observed.add((value, ANY))
        found = EMPTY
        for heap in self._heaps(value):
            cells = heap.cells
            found = found | cells.get((value, key), EMPTY)
            if key != ANY and not isinstance(key, tuple):
                found = found | cells.get((value, ANY), EMPTY)
        return found

    def read_all_cells(self, value: Value) -> Values:
        """Every item of a container (its internal cells aside)."""
        heaps = self._heaps(value)
        self.observed.add(("all", value))
        found: set = set()
        for heap in heaps:
            for key in heap.fields.get(value, ()):
                if key == ANY or not isinstance(key, tuple):
                    found.update(heap.cells.get((value, key), EMPTY))
        return frozenset(found)

    def container_keys(self, container: ContainerValue) -> set:
        """Every key written into ``container``, in the heaps a read of it consults."""
        self.observed.add(("all", container))
        keys: set = set()
        for heap in self._heaps(container):
            keys |= heap.fields.get(container, set())
        keys.discard(DEFAULT_FACTORY)  # a defaultdict's factory: held in a cell, never one of its keys
        return keys

    def exact_items(self, values: Values) -> list[Values] | None:
        """The items of a sequence of known length, one set per position; None when not exactly known."""
        if len(values) != 1:
            return None
        (value,) = values
        if not isinstance(value, ContainerValue) or value.kind not in ("list", "tuple") or value.length < 0:
            return None
        if self.read_cell(value, ANY) - frozenset():
            own = self.owner_of(value)
            if own is not None and own.cells.get((value, ANY)):
                return None
        return [self.read_cell(value, index) for index in range(value.length)]

    def read_cell_here(self, base: ContainerValue, key: object, frame: Frame) -> Values:
        """An item as this run of the scope left it, where only it wrote it; else every value it ever held."""
        cell = (base, key)
        self.observed.add(cell)
        self.observed.add((base, ANY))
        if base in frame.fresh and cell in frame.cells and self.writers.get(cell) == frame.unit.id:
            if self.writers.get((base, ANY), frame.unit.id) == frame.unit.id:
                return frame.cells[cell] | frame.cells.get((base, ANY), EMPTY)
        return self.read_cell(base, key)

    def write_cell(self, value: Value, key: object, values: Values, frame: Frame | None, exact: bool = False) -> None:
        owner = self.owner_of(value) or self
        if owner is not self and self.session.kind == "import":
            # a layer only the modules that import this one read (see ``interpreter``'s docstring)
            writers = self.session.engine.import_layers.setdefault(value, [])
            if self.session not in writers:
                writers.append(self.session)
        cell = (value, key)
        before = self.cells.get(cell)  # a foreign object's cell here is this session's layer over it
        grew = False
        if before is None:
            self.cells[cell] = values = kept(values)
            self.fields[value] = _with_key(self.fields.get(value), key)
            grew = bool(values)
        elif not values <= before:
            self.cells[cell] = bounded(before | values)
            grew = True
        writer = frame.unit.id if frame is not None else -1
        if self.writers.get(cell, writer) != writer:
            writer = -1
            grew = grew or self.writers[cell] != -1  # a read of one writer's own items no longer holds
        self.writers[cell] = writer
        if grew:
            self.session.grew(cell, ("all", value))
        if frame is not None and frame.kind != "class":
            frame.cells[cell] = values if exact or cell not in frame.cells else bounded(frame.cells[cell] | values)

    def write_global(self, module: ModuleSummary, name: str, values: Values) -> None:
        """A module name written from elsewhere (``global x`` in a function, ``module.x = ...``)."""
        key = (module.path, name)
        before = self.global_writes.get(key, EMPTY)
        if not values <= before:
            self.global_writes[key] = bounded(before | values)
            self.session.grew(("global", key))
