"""Statements of the value-flow interpreter: what each summary statement does to the names and the heap.

Names are flow-sensitive within one run of a scope: an ``if`` joins what its
branches left (a branch that returned adds nothing), a loop repeats until its
names stop growing, a ``try`` joins the paths an exception may take. Binding
(``bind``, ``assign``, unpacking) lives here too: it is what statements do.
"""

from __future__ import annotations

from typing import Callable, Iterable

from steplint.analysis import builtin_models
from steplint.analysis.interpret_expressions import MAX_UNROLLED
from steplint.analysis.interpret_shared import (
    Frame, SessionApi, join_envs, maf_factory, made_at, narrowed, path_joined, truth,
)
from steplint.core.framework_versions import ALWAYS_EXPORTED
from steplint.analysis.values import (
    ANY,
    BuiltinMethod,
    EMPTY,
    ONLY_UNKNOWN,
    UNKNOWN,
    ClassValue,
    ConstValue,
    ContainerValue,
    DescriptorValue,
    ExternalValue,
    FunctionValue,
    InstanceValue,
    ModuleValue,
    StepFactoryValue,
    StepOptions,
    StepValue,
    Values,
    bounded,
    kept,
    one,
)
from steplint.core.summary import (
    AssignStmt,
    AttrTarget,
    AugAssignStmt,
    ClassStmt,
    ClassSummary,
    Const,
    DefStmt,
    Display,
    ExprStmt,
    FromImportStmt,
    FunctionSummary,
    IfStmt,
    ImportStmt,
    ItemTarget,
    LoopStmt,
    MatchStmt,
    ModuleSummary,
    NameTarget,
    RaiseStmt,
    ReturnStmt,
    Starred,
    Stmt,
    TargetForm,
    TryStmt,
    UnpackTarget,
    WithStmt,
)


class Statements:
    """Runs statements in a frame; each kind of statement has its handler (``_HANDLERS``)."""

    def __init__(self, session: SessionApi):
        self.session = session

    def block(self, statements: Iterable[Stmt], frame: Frame) -> None:
        statement_handlers = _HANDLERS
        for statement in statements:
            handler = statement_handlers.get(type(statement))
            if handler is not None:
                handler(self, statement, frame)
            if frame.returned:
                return  # what follows a return in the same block never runs

    def _branch(self, statements: tuple, frame: Frame, env: dict) -> dict:
        return self._branch_ending(statements, frame, env)[0]

    def _branch_ending(self, statements: tuple, frame: Frame, env: dict) -> tuple[dict, bool]:
        """The names after a branch, and whether the branch surely returned (or raised)."""
        saved, saved_returned = frame.env, frame.returned
        frame.env = env
        frame.conditional += 1
        frame.returned = False
        try:
            self.block(statements, frame)
            return frame.env, frame.returned
        finally:
            frame.conditional -= 1
            frame.env = saved
            frame.returned = saved_returned

    def _set_env(self, frame: Frame, env: dict) -> None:
        if frame.kind == "module":
            frame.env.clear()
            frame.env.update(env)  # the module unit's env is this very dict: keep it
        else:
            frame.env = env

    # --- one handler per kind of statement ----------------------------------------------------

    def _assign_statement(self, node: AssignStmt, frame: Frame) -> None:
        values = self.session.expr(node.value, frame)
        for target in node.targets:
            self.assign(target, values, frame)

    def _expression_statement(self, node: ExprStmt, frame: Frame) -> None:
        self.session.expr(node.value, frame)

    def _return(self, node: ReturnStmt, frame: Frame) -> None:
        if node.value is not None:
            values = self.session.expr(node.value, frame)
            self.session.grow(frame.unit.returns, values, ("returns", frame.unit.id))
        frame.returned = True

    def _if(self, node: IfStmt, frame: Frame) -> None:
        known = truth(self.session.expr(node.test, frame))
        narrowing = narrowed(node.test, frame.env, lambda part: self.session.expr(part, frame)) if known is None else None
        if narrowing is not None and not all(narrowing[0].values()):
            known = False  # no value of the name can be what it is compared with
        elif narrowing is not None and not all(narrowing[1].values()):
            known = True
        if known is True:
            self.block(node.body, frame)
        elif known is False:
            self.block(node.orelse, frame)
        else:
            when_true, when_false = narrowing or ({}, {})
            taken, taken_returned = self._branch_ending(node.body, frame, {**frame.copy_env(), **when_true})
            other, other_returned = self._branch_ending(node.orelse, frame, {**frame.copy_env(), **when_false})
            if taken_returned and other_returned:
                frame.returned = True
            else:  # a branch that returned adds nothing to what the names are after the ``if``
                self._set_env(frame, other if taken_returned else taken if other_returned else join_envs(taken, other))

    def _try(self, node: TryStmt, frame: Frame) -> None:
        if _cannot_fail(node.body):
            # ``try: from agent_framework import step, workflow`` / ``except ImportError: <stand-ins>``: the
            # linted releases all have the names, so the stand-ins never replace them.
            self.block(node.body, frame)
            self.block(node.orelse, frame)
            self.block(node.final, frame)
            return
        before = frame.copy_env()
        outer, frame.raised = frame.raised, set()
        try:
            after_body = self._branch(node.body, frame, frame.copy_env())
        finally:
            raised, frame.raised = frame.raised, outer
            if outer is not None:
                outer.update(raised)  # what no handler here catches goes on to an enclosing ``try``
        start = join_envs(before, after_body)
        ends = [self._branch(node.orelse, frame, after_body)]
        for kind_form, name, body in node.handlers:
            caught = self.session.expr(kind_form, frame) if kind_form is not None else ONLY_UNKNOWN
            env = dict(start)
            if name:
                env[name] = self._caught(caught, raised, frame)
            ends.append(self._branch(body, frame, env))
        joined = ends[0]
        for env in ends[1:]:
            joined = join_envs(joined, env)
        self._set_env(frame, joined)
        self.block(node.final, frame)

    def _caught(self, caught: Values, raised: set, frame: Frame) -> Values:
        """What ``except E as name:`` binds: an exception of the ``try`` body that may be an ``E``, and anything an
        outside callable raised there (unknown). An exception is surely not an ``E`` where every ``E`` is a class of
        the analyzed code that is not in its class order."""
        session = self.session
        classes = set(session.iterate(caught, frame) if any(isinstance(c, ContainerValue) for c in caught) else caught)
        judged = bool(classes) and all(isinstance(c, ClassValue) for c in classes)
        found = {exception for exception in raised if not judged or classes & set(session.mro(exception.cls))}
        return bounded(frozenset(found)) | ONLY_UNKNOWN

    def _with(self, node: WithStmt, frame: Frame) -> None:
        managers = []
        for position, (context, target) in enumerate(node.items):
            span = node.spans[position] if position < len(node.spans) else None
            outer, frame.site = frame.site, span or frame.site
            try:
                values = self.session.expr(context, frame)
                entered = self.session.enter(values, frame, node.is_async, span)
            finally:
                frame.site = outer
            managers.append((values, span))
            if target is not None:
                self.assign(target, entered, frame)
        self.block(node.body, frame)
        for values, span in reversed(managers):  # the exits run when the block ends, innermost first
            self.session.exit(values, frame, node.is_async, span)

    def _raise(self, node: RaiseStmt, frame: Frame) -> None:
        if node.value is not None:
            values = self.session.expr(node.value, frame)
            classes = frozenset(v for v in values if isinstance(v, ClassValue))
            made = self.session.call(classes, [], [], None, frame) if classes else EMPTY  # ``raise E`` makes an E
            self.session.raised(frozenset(v for v in (values - classes) | made if isinstance(v, InstanceValue)), frame)
        frame.returned = True

    def _match(self, node: MatchStmt, frame: Frame) -> None:
        """The cases that may match run, as ``if`` branches do: a case its pattern (``match_outcome``) or its guard
        surely rules out does not, and none after one that surely matches."""
        subject = self.session.expr(node.subject, frame)
        # a list or tuple written as the subject has the length and items it shows; one read through a name may
        # have changed (``append``, ``pop``, ``sort``) or be a concatenation the analysis reads as its operands
        shown = subject if type(node.subject) is Display and node.subject.kind in ("list", "tuple") \
            and not any(type(item) is Starred for item in node.subject.items) else EMPTY
        ends = []
        surely_matched = False
        for index, (captured, guard, body) in enumerate(node.cases):
            pattern = node.patterns[index] if index < len(node.patterns) else None
            outcome = self.session.match_outcome(pattern, subject, frame, shown)  # None for a case without a pattern
            if outcome is False:
                continue
            env = frame.copy_env()
            for name in captured:
                env[name] = ONLY_UNKNOWN
            saved = frame.env
            frame.env = env
            if index < len(node.patterns):
                frame.conditional += 1
                self.session.bind_pattern(pattern, subject, frame)
                frame.conditional -= 1
                env = frame.env
            passes = truth(self.session.expr(guard, frame)) if guard is not None else True
            env = frame.env  # the guard's ``:=`` binds too
            frame.env = saved
            if passes is False:
                ends.append(env)  # its body never runs, but what the pattern and the guard bound stays bound
                continue
            ends.append(self._branch(body, frame, env))
            if outcome is True and passes is True:
                surely_matched = True
                break
        # where a case surely matched, the path that matched none does not exist
        joined, rest = (ends[0], ends[1:]) if surely_matched else (frame.copy_env(), ends)
        for env in rest:
            joined = join_envs(joined, env)
        self._set_env(frame, joined)

    def _loop(self, node: LoopStmt, frame: Frame) -> None:
        session = self.session
        elements = EMPTY
        runs_once = False  # surely runs its whole body at least once: what the names held before is gone
        if node.iter is not None:
            outer, frame.site = frame.site, node.span or frame.site
            try:
                iterated = session.expr(node.iter, frame)
                runs_once = not node.jumps and _surely_items(iterated)
                elements = session.iterate(iterated, frame, node.span, node.is_async)
            finally:
                frame.site = outer
        elif node.test is not None and truth(session.expr(node.test, frame)) is False:
            self.block(node.orelse, frame)  # ``while False:`` never runs its body; its ``else`` runs at once
            return
        if runs_once and self._unrolled(node, iterated, frame):
            return
        before = frame.copy_env()
        env = frame.copy_env()
        settled = None
        for _ in range(3):  # enough for values to travel around the loop in the code analyzed here
            if node.target is not None:
                env = self._with_target(node.target, elements, env, frame, conditional=True)
            after = self._branch(node.body, frame, dict(env))
            if node.test is not None:
                saved = frame.env
                frame.env = after
                session.expr(node.test, frame)
                frame.env = saved
            joined = join_envs(env, after)
            if joined == env:
                settled = after
                break
            env = joined
        # Surely run at least once, the loop leaves the names as some iteration ended them: the body run from every
        # state an iteration starts in, once those settled. Else as they were before it, too.
        self._set_env(frame, settled if runs_once and settled is not None else join_envs(before, env))
        self._set_env(frame, self._branch(node.orelse, frame, frame.copy_env()))

    def _unrolled(self, node: LoopStmt, iterated: Values, frame: Frame) -> bool:
        """A ``for`` over one tuple of known items, with no ``break`` or ``continue``: each item runs the body in turn,
        as Python runs it (``for layer in (auth, logged): handler = layer(handler)`` wraps twice, in that order)."""
        items = self.session.exact_items(iterated) if len(iterated) == 1 else None
        if not items or len(items) > MAX_UNROLLED:
            return False
        env = frame.copy_env()
        for item in items:
            env = self._with_target(node.target, item, env, frame)  # type: ignore[arg-type]
            env = self._branch(node.body, frame, env)
        self._set_env(frame, env)
        self._set_env(frame, self._branch(node.orelse, frame, frame.copy_env()))
        return True

    def _with_target(self, target: TargetForm, values: Values, env: dict, frame: Frame, conditional: bool = False) -> dict:
        """``env`` with a loop's target bound to ``values`` for the next iteration (``conditional``: the iteration
        may not run)."""
        saved, frame.env = frame.env, env
        frame.conditional += conditional
        try:
            self.assign(target, values, frame)
            return frame.env
        finally:
            frame.conditional -= conditional
            frame.env = saved

    # --- definitions ------------------------------------------------------------------------

    def _define_function(self, node: DefStmt, frame: Frame) -> None:
        module = frame.unit.module
        summary = self.session.engine.functions.get((module.path, node.qualname))
        if summary is None:
            return
        function = FunctionValue(module.path, node.qualname, frame.closure_unit())
        self.store_defaults(function, summary, frame)
        values: Values = frozenset({function})
        for decorator in reversed(summary.decorators):
            decorator_values = self.session.expr(decorator, frame)
            values = self.decorate(decorator_values, values, summary, frame)
        self.bind(node.name, values, frame)

    def store_defaults(self, function: FunctionValue, summary: FunctionSummary, frame: Frame) -> None:
        for param in summary.params:
            if param.default is not None:
                self.session.write_cell(function, ("#default", param.name), self.session.expr(param.default, frame), frame)

    def decorate(self, decorators: Values, target: Values, summary: FunctionSummary, frame: Frame) -> Values:
        """What ``@decorator`` makes of ``target``; MAF's ``step``/``workflow`` make a step at the ``def``."""
        made: set = set()
        site = (frame.unit.module.path, summary.span.line, summary.span.col)
        for decorator in decorators:
            maf = maf_factory(decorator)
            kind = maf[0] if maf is not None else decorator.kind if isinstance(decorator, StepFactoryValue) else None
            if kind is not None:
                # A bare ``@step`` passes nothing: a wrapper that passes nothing either makes the same step.
                options = decorator.options if isinstance(decorator, StepFactoryValue) else StepOptions(built=maf[1])
                for value in target:
                    made.add(StepValue(kind, site, value if isinstance(value, FunctionValue) else None, options))
                continue
            if isinstance(decorator, ExternalValue) and decorator.name.startswith("builtins."):
                # ``@staticmethod`` and friends wrap the function; applying them is not a call worth an edge.
                made.update(builtin_models.call(self.session, decorator.name, [target], [], None, frame) or ONLY_UNKNOWN)
                continue
            wrapped = self.session.call(frozenset({decorator}), [target], [], None, frame)
            made.update(made_at(wrapped, target, site, only_steps=True))
        return bounded(made) if made else ONLY_UNKNOWN

    def _define_class(self, node: ClassStmt, frame: Frame) -> None:
        session = self.session
        module = frame.unit.module
        summary = session.engine.classes.get((module.path, node.qualname))
        if summary is None:
            return
        cls = ClassValue(module.path, node.qualname, frame.closure_unit())
        bases_at = [session.expr(base, frame) for base in summary.bases]
        for _, keyword in summary.keywords:
            session.expr(keyword, frame)
        for position, base in enumerate(summary.bases):
            session.write_cell(cls, ("#base", position), bases_at[position], frame, exact=True)
        body = Frame(frame.unit, {}, "class", parent=frame, cls=cls)
        body.conditional = frame.conditional
        self.block(summary.body, body)
        members = session.class_made(cls, summary, body.env, frame)  # an enum's members replace their values
        for name, values in body.env.items():
            session.write_cell(cls, name, members.get(name, values), frame)
        self._init_subclass(cls, summary, frame)
        values: Values = frozenset({cls})
        for decorator in reversed(summary.decorators):
            decorators = session.expr(decorator, frame)
            session.class_decorated(cls, summary, decorators, frame)
            decorated = session.call(decorators, [values], [], None, frame)
            # A class decorator (dataclass, attrs) returns the class it was given, or something unknown.
            values = values | frozenset(v for v in decorated if v is not UNKNOWN) if decorated - {UNKNOWN} else values
        self.bind(node.name, values, frame)

    def _init_subclass(self, cls: ClassValue, summary: ClassSummary, frame: Frame) -> None:
        """Making a class calls its bases' ``__init_subclass__`` (an implicit classmethod: ``cls`` is the new class),
        with the class statement's keywords: a plugin registry its subclasses fill as they are defined."""
        session = self.session
        for owner in session.mro(cls)[1:]:
            if not isinstance(owner, ClassValue):
                return  # an outside base's: not followed
            found = session.read_cell(owner, "__init_subclass__")
            if not found:
                continue
            functions = [v.function if isinstance(v, DescriptorValue) else v for v in found
                         if isinstance(v, FunctionValue) or (isinstance(v, DescriptorValue) and v.kind == "classmethod")]
            keywords = [(name, session.expr(keyword, frame)) for name, keyword in summary.keywords if name]
            for function in functions:
                if isinstance(function, FunctionValue):
                    session.unit_for(function, cls, [], keywords, frame)
            return

    # --- imports ----------------------------------------------------------------------------

    def _import_module(self, node: ImportStmt, frame: Frame) -> None:
        engine = self.session.engine
        origin = frame.unit.module
        parts = node.module.split(".")
        loaded = builtin_models.import_chain(self.session, node.module, origin)  # ``import a.b.c``: a, a.b, a.b.c
        if node.binds_head:
            head = engine.load(parts[0], origin)
            value = ModuleValue(head.path, head.module) if head is not None else ExternalValue(parts[0])
        else:
            value = ModuleValue(loaded.path, loaded.module) if loaded is not None else ExternalValue(node.module)
        self.bind(node.name, frozenset({value}), frame)

    def _import_from(self, node: FromImportStmt, frame: Frame) -> None:
        loaded = self.session.engine.load(node.module, frame.unit.module)
        if node.imported == "*":
            if loaded is None:
                return  # names from an outside module stay unresolved: ``lookup`` falls back to them
            for name, values in self.star_names(loaded).items():
                self.bind(name, values, frame)
            self.session.note_imported(loaded)  # star_names ran its import: what it writes (a registry) counts too
            return
        if loaded is None:
            self.bind(node.name, one(ExternalValue(f"{node.module}.{node.imported}")), frame)
            return
        values = self.session.module_attribute(loaded, node.imported, frame)
        engine = self.session.engine
        self.session.note_imported(loaded)  # module_attribute ran its import (Engine.module_env)
        for value in values:
            # ``from pkg import sub`` runs the submodule's import, and what it writes (into a registry) with it
            submodule = engine.modules_by_path.get(value.path) if isinstance(value, ModuleValue) else None
            if submodule is not None and submodule.module == f"{loaded.module}.{node.imported}":
                engine.module_unit(submodule)
                self.session.note_imported(submodule)
        self.bind(node.name, values, frame)

    def star_names(self, module: ModuleSummary) -> dict[str, Values]:
        """What ``from module import *`` binds: the names in its ``__all__``, else its public names."""
        state = self.session.engine.module_env(module)
        names: Iterable[str] | None = None
        exported = state.get("__all__")
        if exported:
            listed: set[str] = set()
            for container in exported:
                for item in self.session.read_all_cells(container):
                    if isinstance(item, ConstValue) and isinstance(item.value, str):
                        listed.add(item.value)
            names = listed
        if names is None:
            names = [name for name in state if not name.startswith("_")]
        found = {}
        for name in names:
            values = self.session.module_attribute(module, name, None)
            if values:
                found[name] = values
        return found

    # --- binding ----------------------------------------------------------------------------

    def _augmented(self, node: AugAssignStmt, frame: Frame) -> None:
        session = self.session
        current = self._target_value(node.target, frame)
        added = session.expr(node.value, frame)
        result: set = set()
        for value in current:
            if isinstance(value, ContainerValue) and value.kind == "dict" and node.op == "|":
                # ``table |= other`` updates the dict in place: ``other``'s keys over its own
                builtin_models.container_method(session, BuiltinMethod(value, "update"), [added], [], None, frame)
                result.add(value)
            elif isinstance(value, ContainerValue) and node.op in ("+", "|"):
                for item in session.iterate(added, frame):  # ``items += [f]`` extends the list in place
                    session.write_cell(value, ANY, frozenset({item}), frame)
                result.add(value)
            elif isinstance(value, ContainerValue) and value.kind == "dict":
                result.add(value)
            elif node.op == "/" and (joined := path_joined(frozenset({value}))):  # ``folder /= "logs"``
                result.update(joined)
            else:
                result.add(UNKNOWN)
        self.assign(node.target, frozenset(result) or ONLY_UNKNOWN, frame)

    def _target_value(self, target: TargetForm, frame: Frame) -> Values:
        kind = type(target)
        session = self.session
        if kind is NameTarget:
            return session.lookup(target.name, frame)
        if kind is AttrTarget:
            return session.attribute(session.expr(target.base, frame), target.attr, frame)
        if kind is ItemTarget:
            return session.item(session.expr(target.base, frame), session.expr(target.index, frame), frame, by_getitem=True)
        return ONLY_UNKNOWN

    def bind(self, name: str, values: Values, frame: Frame) -> None:
        if frame.kind == "function":
            summary = frame.unit.summary
            if name in summary.declared_global:
                self.session.write_global(frame.unit.module, name, values)
                return
            if name in summary.declared_nonlocal:
                self._bind_nonlocal(name, values, frame)
                return
        values = kept(values)
        frame.env[name] = values
        if frame.kind != "class":
            self.session.remember(frame.unit, name, values)

    def _bind_nonlocal(self, name: str, values: Values, frame: Frame) -> None:
        """``nonlocal name`` then ``name = ...``: the enclosing function's cell, which every closure over it reads."""
        session = self.session
        function = frame.unit.function
        frame_id = function.frame if isinstance(function, FunctionValue) else 0
        while frame_id:
            unit = session.engine.units.get(frame_id)
            if unit is None or not isinstance(unit.function, FunctionValue):
                return
            summary = unit.summary
            if name in summary.bindings and name not in summary.declared_nonlocal and name not in summary.declared_global:
                session.remember(unit, name, values)
                return
            frame_id = unit.function.frame

    def assign(self, target: TargetForm, values: Values, frame: Frame) -> None:
        _ASSIGNERS.get(type(target), Statements._assign_other)(self, target, values, frame)

    def _assign_name(self, target: NameTarget, values: Values, frame: Frame) -> None:
        self.bind(target.name, values, frame)

    def _assign_attribute(self, target: AttrTarget, values: Values, frame: Frame) -> None:
        for owner in self.session.expr(target.base, frame):
            self.session.store_attribute(owner, target.attr, values, frame)

    def _assign_item(self, target: ItemTarget, values: Values, frame: Frame) -> None:
        bases = self.session.expr(target.base, frame)
        keys = self.session.expr(target.index, frame)
        for base in bases:
            self.session.store_item(base, keys, values, frame, exact=len(bases) == 1)

    def _assign_other(self, target: TargetForm, values: Values, frame: Frame) -> None:
        for part in target.parts:  # type: ignore[union-attr]
            self.session.expr(part, frame)

    def _unpack(self, target: UnpackTarget, values: Values, frame: Frame) -> None:
        for index, item in enumerate(target.items):
            picked: set = set()
            for value in values:
                picked.update(self._unpacked(target, index, value, frame))
            self.assign(item, frozenset(picked) if picked else ONLY_UNKNOWN, frame)

    def _unpacked(self, target: UnpackTarget, index: int, value: object, frame: Frame) -> Iterable:
        """What the ``index``-th name of ``a, *b, c = value`` gets from one value."""
        session = self.session
        count = len(target.items)
        if isinstance(value, ContainerValue) and value.kind in ("list", "tuple") and value.length >= 0:
            if target.star < 0 or index < target.star:
                return session.read_cell(value, index)
            if index > target.star:
                return session.read_cell(value, value.length - (count - index))
            # the starred name: a new list of the middle items
            middle = ContainerValue("list", (*value.site, "star", index), session.id, value.length - count + 1)
            for position in range(max(value.length - count + 1, 0)):
                session.write_cell(middle, position, session.read_cell(value, index + position), frame, exact=True)
            return (middle,)
        if isinstance(value, ContainerValue):
            return session.read_all_cells(value)
        if value is UNKNOWN:
            return (UNKNOWN,)
        return session.iterate(frozenset({value}), frame)


_Handler = Callable[[Statements, Stmt, Frame], None]

#: What each kind of statement does (a kind not listed does nothing).
_HANDLERS: dict[type, _Handler] = {
    AssignStmt: Statements._assign_statement,
    ExprStmt: Statements._expression_statement,
    ReturnStmt: Statements._return,
    DefStmt: Statements._define_function,
    ClassStmt: Statements._define_class,
    IfStmt: Statements._if,
    LoopStmt: Statements._loop,
    TryStmt: Statements._try,
    WithStmt: Statements._with,
    ImportStmt: Statements._import_module,
    FromImportStmt: Statements._import_from,
    AugAssignStmt: Statements._augmented,
    RaiseStmt: Statements._raise,
    MatchStmt: Statements._match,
}

def _surely_items(values: Values) -> bool:
    """Whether iterating any of ``values`` gives at least one item: each is a tuple of known, non-zero length (a
    tuple never changes; a list may have been emptied)."""
    return bool(values) and all(type(v) is ContainerValue and v.kind == "tuple" and v.length > 0 for v in values)


def _cannot_fail(body: tuple) -> bool:
    """A ``try`` body that imports names every targeted release of agent-framework-core exports, and does
    nothing else that can raise (``AVAILABLE = True``: a constant bound to names)."""
    imports = [s for s in body if isinstance(s, FromImportStmt)]
    return bool(imports) and all(
        statement.module == _MAF and statement.imported in ALWAYS_EXPORTED for statement in imports
    ) and all(
        isinstance(statement, FromImportStmt) or (
            isinstance(statement, AssignStmt) and isinstance(statement.value, Const)
            and all(isinstance(target, NameTarget) for target in statement.targets))
        for statement in body
    )


_MAF = "agent_framework"


#: How each kind of assignment target binds (any other kind: its parts are evaluated).
_ASSIGNERS: dict[type, Callable[[Statements, TargetForm, Values, Frame], None]] = {
    NameTarget: Statements._assign_name,
    AttrTarget: Statements._assign_attribute,
    ItemTarget: Statements._assign_item,
    UnpackTarget: Statements._unpack,
}
