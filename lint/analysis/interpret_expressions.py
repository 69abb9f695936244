"""Expressions of the value-flow interpreter: the values each summary expression form may have.

Names resolve as Python scopes them: a class body's names, then the function's
locals (flow-sensitive), then the enclosing functions' (every value they were
ever bound to), then the module's, then a builtin. Displays and comprehensions
make containers whose items live in the heap.
"""

from __future__ import annotations

import operator
from typing import Callable

from steplint.analysis.interpret_shared import (
    DictMerge, Frame, SessionApi, container_key, context_tag, identical, made_at, narrowed, path_joined, truth, tuple_key,
)
from steplint.analysis.python_release import is_version_name, release_compared, version_prefix
from steplint.analysis.values import (
    ANY,
    EMPTY,
    LATE_BINDING,
    ONLY_UNKNOWN,
    UNKNOWN,
    ClassValue,
    ConstValue,
    ContainerValue,
    ExternalValue,
    FunctionValue,
    ModuleValue,
    StepValue,
    Values,
    bounded,
    const,
    one,
)
from steplint.core.summary import (
    Attr,
    Await,
    BinOpForm,
    CallExpr,
    Choice,
    Compare,
    Negation,
    Comprehension,
    Const,
    Display,
    Expr,
    LambdaForm,
    ModuleSummary,
    NameTarget,
    FormattedString,
    Opaque,
    Ref,
    SliceForm,
    Starred,
    Subscript,
    UnionExpr,
    UnpackTarget,
    Walrus,
    YieldForm,
)


class Expressions:
    """Evaluates expression forms in a frame; each form has its handler (``_HANDLERS``)."""

    def __init__(self, session: SessionApi):
        self.session = session

    def expr(self, node: Expr, frame: Frame) -> Values:
        handler = _HANDLERS.get(type(node))
        return handler(self, node, frame) if handler is not None else ONLY_UNKNOWN

    # --- names ------------------------------------------------------------------------------

    def _ref(self, node: Ref, frame: Frame) -> Values:
        return self.dotted(node.dotted, frame)

    def dotted(self, dotted: str, frame: Frame) -> Values:
        head, _, rest = dotted.partition(".")
        values = self.lookup(head, frame)
        while rest:
            attribute, _, rest = rest.partition(".")
            values = self.session.attribute(values, attribute, frame)
        return values

    def lookup(self, name: str, frame: Frame) -> Values:
        current: Frame | None = frame
        while current is not None and current.kind == "class":
            found = current.env.get(name)
            if found is not None:
                return found
            current = current.parent
        if current is None:
            return ONLY_UNKNOWN
        if current.kind == "function":
            if name in current.local_names:
                return current.env.get(name, EMPTY)
            if current.unit.summary.name == "<lambda>":
                late = self.session.read_cell(current.unit.function, (LATE_BINDING, name))
                if late:  # the variable of the comprehension the lambda was made in
                    return late
            return self._free(current.unit.function.frame if isinstance(current.unit.function, FunctionValue) else 0,
                              name, current.unit.module)
        found = current.env.get(name)
        if found is not None:
            return found
        return self.session.global_fallback(current.unit.module, name)

    def _free(self, frame_id: int, name: str, module: ModuleSummary) -> Values:
        """A free name of a function: its enclosing functions' values, then its module's, then a builtin."""
        session = self.session
        while frame_id:
            unit = session.engine.units.get(frame_id)
            if unit is None:
                break
            if isinstance(unit.function, ModuleValue):
                return session.module_attribute(unit.module, name, None, from_inside=True)
            summary = unit.summary
            if name in summary.bindings and name not in summary.declared_global and name not in summary.declared_nonlocal:
                session.observed.add(("env", unit.id, name))
                return unit.union_env.get(name, EMPTY)
            frame_id = unit.function.frame if isinstance(unit.function, FunctionValue) else 0
        return session.module_attribute(module, name, None, from_inside=True)

    def _walrus(self, node: Walrus, frame: Frame) -> Values:
        values = self.expr(node.value, frame)
        self.session.bind(node.name, values, frame)
        return values

    # --- simple forms -----------------------------------------------------------------------

    def _call(self, node: CallExpr, frame: Frame) -> Values:
        callees = self.expr(node.func, frame)
        args: list = []
        for arg in node.args:
            if type(arg) is Starred:
                args.append(("*", self.expr(arg.value, frame)))
            else:
                args.append(self.expr(arg, frame))
        kwargs = [(name, self.expr(value, frame)) for name, value in node.kwargs]
        made = self.session.call(callees, args, kwargs, node.span, frame)
        if node.span is not None and any(isinstance(value, StepValue) for value in made):
            given = [v for arg in args if not isinstance(arg, tuple) for v in arg if isinstance(v, FunctionValue)]
            made = made_at(made, given, (frame.unit.module.path, node.span.line, node.span.col))
        return made

    def _const(self, node: Const, frame: Frame) -> Values:
        return const(node.value)

    def _attribute(self, node: Attr, frame: Frame) -> Values:
        base = self.expr(node.base, frame)
        outer, frame.site = frame.site, node.span or frame.site  # a getter or ``__getattr__`` runs here
        try:
            return self.session.attribute(base, node.attr, frame)
        finally:
            frame.site = outer

    def _subscript(self, node: Subscript, frame: Frame) -> Values:
        base = self.expr(node.base, frame)
        if len(node.items) == 1 and type(node.items[0]) is SliceForm:
            return self._slice(base, node.items[0], frame)
        if len(node.items) == 1:
            return self.session.item(base, self.expr(node.items[0], frame), frame, by_getitem=True)
        items = [self.expr(item, frame) for item in node.items]
        dicts = frozenset(v for v in base if isinstance(v, ContainerValue) and v.kind == "dict")
        # ``routes["us", 1]`` reads the key ("us", 1); ``Box[int, str]`` is a generic alias
        found = set(self.session.item(dicts, frozenset({tuple_key(items)}), frame, by_getitem=True)) if dicts else set()
        found.update(v for v in base if isinstance(v, ClassValue))
        if any(v not in dicts and not isinstance(v, ClassValue) for v in base):
            found.add(UNKNOWN)
        return bounded(found) if found else ONLY_UNKNOWN

    def _await(self, node: Await, frame: Frame) -> Values:
        outer, frame.site = frame.site, node.span or frame.site  # ``await self.prop``: the getter runs here
        try:
            return self.session.awaited(self.expr(node.value, frame), frame, node.span)
        finally:
            frame.site = outer

    def _choice(self, node: Choice, frame: Frame) -> Values:
        if node.op:
            return self._boolean(node, frame)
        known = None
        for effect in node.effects:
            known = truth(self.expr(effect, frame))
        if known is not None and len(node.items) == 2 and node.effects:  # ``a if test else b``, test known
            return self.expr(node.items[0] if known else node.items[1], frame)
        found: set = set()
        for item in node.items:
            found.update(self.expr(item, frame))
        return bounded(found)

    def _boolean(self, node: Choice, frame: Frame) -> Values:
        """``a and b``, ``a or b``: an item runs only where the items before it left the answer open (``and`` stops
        at a false one, ``or`` at a true one, and the one it stops at is the value)."""
        stops_at = node.op == "or"
        found: set = set()
        last = len(node.items) - 1
        for index, item in enumerate(node.items):
            values = self.expr(item, frame)
            known = truth(values) if index < last else None
            if known is None or known is stops_at:
                found.update(values)  # the value, or one it may be
            if known is stops_at:
                break
        return bounded(found) if found else ONLY_UNKNOWN

    def _negation(self, node: Negation, frame: Frame) -> Values:
        known = truth(self.expr(node.operand, frame))
        return ONLY_UNKNOWN if known is None else const(not known)

    def _lambda(self, node: LambdaForm, frame: Frame) -> Values:
        module = frame.unit.module
        function = FunctionValue(module.path, node.qualname, frame.closure_unit())
        summary = self.session.engine.functions.get((module.path, node.qualname))
        if summary is not None:
            self.session.store_defaults(function, summary, frame)
        # Made in a comprehension, it reads the comprehension's variables when it is called: by then they hold what
        # the comprehension's last item gave them (``[lambda x: f(x) for f in fs]`` all call the last ``f``).
        for name, last in (frame.late or {}).items():
            if summary is None or name in summary.bindings:
                continue  # the lambda's own parameter
            self.session.write_cell(function, (LATE_BINDING, name), last if last is not None else frame.env.get(name, EMPTY),
                                    frame)
        return frozenset({function})

    def _starred(self, node: Starred, frame: Frame) -> Values:
        return self.expr(node.value, frame)

    def _yield(self, node: YieldForm, frame: Frame) -> Values:
        if node.value is not None:
            values = self.expr(node.value, frame)
            self.session.grow(frame.unit.yields, self.session.iterate(values, frame, node.span) if node.delegate else values,
                              ("yields", frame.unit.id))
        return ONLY_UNKNOWN

    def _operation(self, node: BinOpForm | UnionExpr, frame: Frame) -> Values:
        is_union = type(node) is UnionExpr
        parts = node.items if is_union else (node.left, node.right)  # type: ignore[union-attr]
        operands = [self.expr(part, frame) for part in parts]
        found = set().union(*operands)
        containers = frozenset(v for v in found if isinstance(v, ContainerValue))
        if (is_union or node.op == "|") and containers and all(v.kind == "dict" for v in containers):  # type: ignore[union-attr]
            return self._dict_union(parts, operands, frame)
        if containers and (is_union or node.op == "+"):  # type: ignore[union-attr]
            return containers  # a concatenation: its items are the operands' items
        if not is_union and node.op == "/":  # type: ignore[union-attr]
            return path_joined(found) or ONLY_UNKNOWN
        if not is_union and node.op == "+":  # type: ignore[union-attr]
            return _strings_made(operands, ("str",)) or ONLY_UNKNOWN  # ``"pkg." + name``
        return ONLY_UNKNOWN

    def _dict_union(self, parts: tuple, operands: list[Values], frame: Frame) -> Values:
        """``d | e``: a new dict, ``e``'s keys over ``d``'s."""
        session = self.session
        sites = sorted((v.site for values in operands for v in values if isinstance(v, ContainerValue)), key=repr)
        container = ContainerValue("dict", ("union", *sites), session.id)
        merged = DictMerge(session)
        for part, values in zip(parts, operands):
            merged.spread(values, _literal_keys(part))
        merged.write(container, frame)
        return frozenset({container})

    def _compare(self, node: Compare, frame: Frame) -> Values:
        """A comparison decided where its operands are known values (``_decided``); a chain stops at its first false
        link, and its later operands do not run. Undecided: unknown, and every operand may run."""
        left = self.expr(node.left, frame)
        links = ((node.op, node.right), *node.rest)
        for position, (op, operand) in enumerate(links):
            right = self.expr(operand, frame)
            known = self._decided(op, left, right)
            if known is None:
                for _, later in links[position + 1 :]:
                    self.expr(later, frame)
                return ONLY_UNKNOWN
            if not known:
                return const(False)
            left = right
        return const(True)

    def _decided(self, op: str, left: Values, right: Values) -> bool | None:
        """``==``/``!=`` and orderings only between two constants of one type (``1 == 1.0`` and ``True == 1`` stay
        unknown; floats too); ``is``/``is not`` as ``identical`` tells; ``in`` a string constant or a tuple display of
        constants."""
        if len(left) != 1 or len(right) != 1:
            return None
        (a,), (b,) = left, right
        if type(a) is ExternalValue or type(b) is ExternalValue:
            return self._release_decided(op, a, b)
        if op in ("in", "not in"):
            found = self._member(a, b)
            return None if found is None else found == (op == "in")
        if op in ("is", "is not"):
            same = identical(a, b)
            return None if same is None else same == (op == "is")
        if not (isinstance(a, ConstValue) and isinstance(b, ConstValue) and a.kind == b.kind and a.kind != "float"):
            return None
        if op in ("==", "!="):
            return (a.value == b.value) == (op == "==")
        try:
            return bool(_ORDERINGS[op](a.value, b.value))
        except TypeError:  # ``None < None``: Python raises
            return None

    def _release_decided(self, op: str, a: object, b: object) -> bool | None:
        """``sys.version_info`` (or a prefix of it) against a tuple display of constants, by the target Python."""
        version_first = type(a) is ExternalValue
        version, other = (a, b) if version_first else (b, a)
        if not is_version_name(version.name):  # type: ignore[union-attr]
            return None
        items = self._constant_items(other)
        if items is None:
            return None
        return release_compared(op, version.name, tuple(item.value for item in items),  # type: ignore[union-attr]
                                self.session.engine.target_python, version_first)

    def _constant_items(self, container: object) -> list[ConstValue] | None:
        """The items of a tuple display whose items are all constants (a tuple never changes; a list or set may have
        been added to), else None."""
        if not (isinstance(container, ContainerValue) and container.kind == "tuple" and container.length >= 0):
            return None
        items = []
        for position in range(container.length):
            values = self.session.read_cell(container, position)
            if len(values) != 1:
                return None
            (item,) = values
            if not isinstance(item, ConstValue):
                return None
            items.append(item)
        return items

    def _member(self, item: object, container: object) -> bool | None:
        """``item in container`` for a string constant in a string constant, or a constant in a tuple display
        whose items are all constants."""
        if not isinstance(item, ConstValue):
            return None
        if isinstance(container, ConstValue):
            if container.kind == "str" == item.kind:
                return item.value in container.value  # type: ignore[operator]
            return None
        elements = self._constant_items(container)
        if elements is None:
            return None
        found = False
        for element in elements:
            if element.kind == item.kind:
                found = found or element.value == item.value
            elif {element.kind, item.kind} & _NUMBERS:
                return None  # ``1 in (True,)``: equal across kinds
        return found

    def _opaque(self, node: Opaque, frame: Frame) -> Values:
        for part in node.parts:
            self.expr(part, frame)
        return ONLY_UNKNOWN

    def _formatted(self, node: FormattedString, frame: Frame) -> Values:
        """An f-string whose every value is a string or int constant (each of a few) is the strings Python makes."""
        values = [self.expr(part, frame) for part in node.parts]
        if node.pieces is None:
            return ONLY_UNKNOWN
        pieces = [piece if type(piece) is str else values[piece] for piece in node.pieces]  # type: ignore[index]
        return _strings_made(pieces, ("str", "int")) or ONLY_UNKNOWN

    def _slice_form(self, node: SliceForm, frame: Frame) -> Values:
        for part in (node.lower, node.upper, node.step):
            if part is not None:
                self.expr(part, frame)
        return ONLY_UNKNOWN

    # --- containers -------------------------------------------------------------------------

    def _display(self, node: Display, frame: Frame) -> Values:
        if not node.site:
            for item in node.items:
                self.expr(item, frame)
            return ONLY_UNKNOWN
        if node.kind == "dict":
            return self._dict_display(node, frame)
        session = self.session
        starred = any(type(item) is Starred for item in node.items)
        site = (frame.unit.module.path, node.site, *context_tag(frame.unit))
        container = ContainerValue(node.kind, site, session.id, -1 if starred or node.kind == "set" else len(node.items))
        frame.mark_fresh(container)
        session.write_cell(container, ANY, EMPTY, frame)
        position = 0
        for item in node.items:
            values = self.expr(item, frame)
            if type(item) is Starred:
                session.write_cell(container, ANY, session.iterate(values, frame), frame)
                position = -1
            elif node.kind == "set" or position < 0:
                session.write_cell(container, ANY, values, frame)
            else:
                session.write_cell(container, position, values, frame, exact=True)
                position += 1
        return frozenset({container})

    def _dict_display(self, node: Display, frame: Frame) -> Values:
        """``{k: v, **other}``: each literal key holds what its last writer gave it, as Python keeps it."""
        session = self.session
        container = ContainerValue("dict", (frame.unit.module.path, node.site, *context_tag(frame.unit)), session.id)
        frame.mark_fresh(container)
        merged = DictMerge(session)
        for key, value in zip(node.keys, node.items):
            values = self.expr(value, frame)
            if key is None:  # ``**other``: an inline display surely has its literal keys
                merged.spread(values, _literal_keys(value))
            else:
                merged.put(self.expr(key, frame), values)
        merged.write(container, frame)
        return frozenset({container})

    def _comprehension(self, node: Comprehension, frame: Frame) -> Values:
        site = (frame.unit.module.path, node.site, *context_tag(frame.unit))
        kind = node.kind
        container = ContainerValue("list" if kind == "generator" else kind, site, self.session.id)
        self.session.write_cell(container, ANY, EMPTY, frame)
        inner = Frame(frame.unit, frame.copy_env(), frame.kind, frame.parent, frame.cls)
        inner.local_names = frame.local_names | _comprehension_names(node)
        inner.conditional = frame.conditional + 1
        inner.cells = frame.cells
        inner.site = frame.site
        inner.raised = frame.raised  # what a call in the comprehension raises, an enclosing ``try`` may bind
        if frame.late is not None or _holds(node.elt, (LambdaForm,)):  # a lambda made here reads what its names hold last
            inner.late = {**(frame.late or {}), **dict.fromkeys(_comprehension_names(node))}
        self._generators(node, 0, inner, container)
        # Walrus targets bind in the enclosing function.
        for name, values in inner.env.items():
            if name in frame.local_names or frame.kind == "module":
                if name not in _comprehension_names(node) and frame.env.get(name) is not values:
                    frame.env[name] = values
        return frozenset({container})

    def _last_items(self, generator: object, iterated: Values, frame: Frame) -> None:
        """A comprehension's only ``for`` over a list or tuple of known items: what its names hold once it has run
        is what the last item binds (``frame.late``)."""
        items = self.session.exact_items(iterated)
        if not items:
            return
        scratch = Frame(frame.unit, {}, "function", frame.parent, frame.cls)
        scratch.conditional = frame.conditional
        self.session.assign(generator.target, items[-1], scratch)  # type: ignore[attr-defined]
        for name, values in scratch.env.items():
            if name in frame.late:  # type: ignore[operator]
                frame.late[name] = values  # type: ignore[index]

    def _generators(self, node: Comprehension, index: int, frame: Frame, container: ContainerValue) -> None:
        session = self.session
        if index == len(node.generators):
            value = self.expr(node.elt, frame)
            if node.kind == "dict" and node.key is not None:
                session.store_item(container, self.expr(node.key, frame), value, frame)
            else:
                session.write_cell(container, ANY, value, frame)
            return
        generator = node.generators[index]
        iterated = self.expr(generator.iter, frame)
        if frame.late is not None and len(node.generators) == 1 and not _runs_code(node):
            self._last_items(generator, iterated, frame)  # nothing here can call a lambda before the end
        exact = session.exact_items(iterated) if node.kind == "dict" and len(node.generators) == 1 else None
        if exact is not None and len(exact) <= MAX_UNROLLED:
            # ``{k: f for k, f in [("run", a), ("stop", b)]}``: each item binds its own key and value, as Python runs it.
            for item in exact:
                session.assign(generator.target, item, frame)
                if self._conditions_may_hold(generator.conditions, node, frame):
                    self._generators(node, index + 1, frame, container)
            return
        elements = session.iterate(iterated, frame, generator.span, generator.is_async)
        session.assign(generator.target, elements if elements else EMPTY, frame)
        if self._conditions_may_hold(generator.conditions, node, frame):
            self._generators(node, index + 1, frame, container)

    def _conditions_may_hold(self, conditions: tuple, node: Comprehension, frame: Frame) -> bool:
        """Whether an element passes a comprehension's ``if`` clauses (each runs only while those before it held);
        ``if target is X`` narrows a target of the comprehension for the clauses and the element after it (an
        enclosing function's name is not narrowed: what the comprehension binds goes back to it)."""
        for condition in conditions:
            if truth(self.expr(condition, frame)) is False:
                return False
            narrowing = narrowed(condition, frame.env, lambda part: self.expr(part, frame))
            if narrowing is not None and set(narrowing[0]) <= _comprehension_names(node):
                if not all(narrowing[0].values()):
                    return False
                frame.env.update(narrowing[0])
        return True

    def _slice(self, bases: Values, form: SliceForm, frame: Frame) -> Values:
        session = self.session
        bounds = []
        for part in (form.lower, form.upper, form.step):
            values = self.expr(part, frame) if part is not None else one(ConstValue("NoneType", None))
            (only,) = values if len(values) == 1 else (None,)
            bounds.append(only.value if isinstance(only, ConstValue) else UNKNOWN)
        found: set = set()
        for base in bases:
            prefix = (version_prefix(base.name, bounds[1])  # type: ignore[union-attr]
                      if type(base) is ExternalValue and bounds[0] is bounds[2] is None else None)
            if prefix is not None:  # ``sys.version_info[:2]``
                found.add(ExternalValue(prefix))
                continue
            if not isinstance(base, ContainerValue) or base.kind not in ("list", "tuple"):
                found.add(UNKNOWN)
                continue
            lower, upper, step = bounds
            if base.length >= 0 and all(isinstance(b, int) or b is None for b in bounds):
                positions = range(base.length)[slice(lower, upper, step)]
                made = ContainerValue(base.kind, (*base.site, "slice", lower, upper, step), session.id, len(positions))
                for index, position in enumerate(positions):
                    session.write_cell(made, index, session.read_cell(base, position), frame, exact=True)
            else:
                made = ContainerValue(base.kind, (*base.site, "slice"), session.id)
                session.write_cell(made, ANY, session.read_all_cells(base), frame)
            found.add(made)
        return frozenset(found)


_ORDERINGS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
#: Kinds whose values can equal a value of another kind (``1 == True == 1.0``).
_NUMBERS = frozenset({"bool", "int", "float"})
MAX_UNROLLED = 32  # items of a dict comprehension's iterable run one by one (as MAX_VALUES bounds a name)


def _literal_keys(node: Expr) -> frozenset:
    """The keys a dict display surely has: its literal keys (none when it spreads another)."""
    if type(node) is not Display or node.kind != "dict" or any(k is None for k in node.keys):  # type: ignore[union-attr]
        return frozenset()
    sure = set()
    for key in node.keys:  # type: ignore[union-attr]
        if type(key) is Const:
            sure.update(container_key(v) for v in const(key.value) if isinstance(v, ConstValue))  # type: ignore[union-attr]
    return frozenset(sure)


def _strings_made(pieces: list, kinds: tuple[str, ...]) -> Values:
    """The strings Python makes by joining ``pieces`` in order: literal text (a ``str``) and values, each a few
    constants of ``kinds`` (``str`` for ``a + b``; ``str`` or ``int`` for an f-string's plain ``{value}``). EMPTY
    where a value may be anything else, or the strings would be more than MAX_UNROLLED."""
    texts = [""]
    for piece in pieces:
        if type(piece) is str:
            texts = [text + piece for text in texts]
            continue
        if not all(type(v) is ConstValue and v.kind in kinds for v in piece):
            return EMPTY
        try:
            texts = [text + str(v.value) for text in texts for v in piece]  # type: ignore[union-attr]
        except ValueError:  # an int past Python's digit limit for str(): formatting it raises
            return EMPTY
        if not texts or len(texts) > MAX_UNROLLED:
            return EMPTY
    return frozenset(value for text in texts for value in const(text))


def _runs_code(node: Comprehension) -> bool:
    """Whether evaluating the comprehension's element, key or conditions calls or awaits anything (which may call a
    lambda it made, while its variables still hold the current item). A lambda's own body is not part of the form."""
    forms = [node.elt, node.key, *(c for g in node.generators for c in g.conditions),
             *(g.iter for g in node.generators[1:])]
    return any(_holds(form, _RUNS_CODE) for form in forms)


_RUNS_CODE = (CallExpr, Await, YieldForm)


def _holds(form: object, kinds: tuple[type, ...]) -> bool:
    """Whether an expression form is, or has among its parts (a nested comprehension's too; a lambda's body is not
    part of its form), a form of one of ``kinds``."""
    if type(form) in kinds:
        return True
    if type(form) is tuple:
        return any(_holds(part, kinds) for part in form)
    if type(form) is Const or form is None or isinstance(form, (str, int)):
        return False  # a constant's value is data
    return any(_holds(getattr(form, slot, None), kinds) for slot in getattr(type(form), "__slots__", ()))


def _comprehension_names(node: Comprehension) -> frozenset[str]:
    names: set[str] = set()
    for generator in node.generators:
        stack = [generator.target]
        while stack:
            target = stack.pop()
            if isinstance(target, NameTarget):
                names.add(target.name)
            elif isinstance(target, UnpackTarget):
                stack.extend(target.items)
    return frozenset(names)


#: The values of each expression form (a form not listed is unknown).
_HANDLERS: dict[type, Callable[[Expressions, Expr, Frame], Values]] = {
    Ref: Expressions._ref,
    CallExpr: Expressions._call,
    Const: Expressions._const,
    Attr: Expressions._attribute,
    Display: Expressions._display,
    Subscript: Expressions._subscript,
    Await: Expressions._await,
    Choice: Expressions._choice,
    LambdaForm: Expressions._lambda,
    Comprehension: Expressions._comprehension,
    Starred: Expressions._starred,
    Walrus: Expressions._walrus,
    YieldForm: Expressions._yield,
    BinOpForm: Expressions._operation,
    UnionExpr: Expressions._operation,
    Compare: Expressions._compare,
    Negation: Expressions._negation,
    Opaque: Expressions._opaque,
    FormattedString: Expressions._formatted,
    SliceForm: Expressions._slice_form,
}
