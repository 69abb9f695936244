"""Which checkpoint storages each workflow can be built or run with, and whether they pickle.

MAF takes a workflow's storage in four places: ``@workflow(checkpoint_storage=...)``
(1.2-1.17), ``wf.build(checkpoint_storage=...)`` (1.18+), and
``checkpoint_storage=`` of ``run`` on the workflow, on what ``build`` made,
and on ``as_agent``/its agent. Every call with that keyword in the run's files
that can load a step's module is found (``_scan_reaching``: a file is read
only where its import can reach the step, which is told from the names its
text spells); its value and the workflow it is given to are what the value
flow says they are (names through imports and assignments, never by spelling).

A storage is *pickling* when it goes through MAF's checkpoint encoding:
``FileCheckpointStorage``, a class of the analyzed code derived from it, or one
whose methods call ``encode_checkpoint_value``/``decode_checkpoint_value`` or
make a ``FileCheckpointStorage``. It is *in memory* when it is MAF's
``InMemoryCheckpointStorage`` (or derived from it), or a class of the analyzed
code that does none of that (it keeps the objects as they are). Anything else
(a library's factory, a parameter no analyzed code fills) is *unknown*.

A module's findings that read this fact depend on every run file: the service
records that, so the run cache re-checks them when any run file changes.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass, field

from steplint.analysis.flow import ModuleFlow
from steplint.analysis.function_values import final_frame
from steplint.analysis.interpret_shared import BUILT_WORKFLOW, Frame
from steplint.analysis.values import ClassValue, ExternalValue, InstanceValue, StepValue, Value
from steplint.core.summary import Attr, CallExpr, Expr, FunctionSummary, ModuleSummary, Ref, iter_calls

PICKLING = "pickling"
IN_MEMORY = "in memory"
UNKNOWN_STORAGE = "unknown"

KEYWORD = "checkpoint_storage"
#: Methods that take (or make what takes) a workflow's storage; their receiver is the workflow or what it built.
_RECEIVING = frozenset({"build", "run", "as_agent", "run_stream"})
_ENCODERS = frozenset({"encode_checkpoint_value", "decode_checkpoint_value", "FileCheckpointStorage"})
_MAF_STORAGES = {"FileCheckpointStorage": PICKLING, "InMemoryCheckpointStorage": IN_MEMORY}
_MAX_CHASE = 4


@dataclass
class StorageFacts:
    """The kinds of storage each scanned module gives each workflow (by module path, then workflow key), and the
    run's modules they were searched in."""

    by_holder: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    module_names: list[str] = field(default_factory=list)


class CheckpointStorages:
    """The project's storage fact (``Analysis.service`` makes one per run)."""

    def __init__(self, analysis):  # noqa: ANN001 - an Analysis
        self.analysis = analysis
        self._facts: StorageFacts | None = None
        self._unscanned: list[ModuleSummary] = []
        #: The run's other files that can spell the keyword, by module name (with that name's other files), not
        #: read until a step's reach holds one of them.
        self._unread: dict[str, tuple[list[str], set[str]]] = {}
        self._queued: set[str] = set()
        self._reaches: dict[str, set[str]] = {}
        self._reached: dict[str, frozenset[str]] = {}

    def storages_reaching(self, checked: ModuleSummary, step_key: str) -> set[str]:
        """The kinds of storage of every workflow that reaches the step ``step_key``."""
        facts = self._computed()
        index = self.analysis.index
        for name in facts.module_names:  # the verdict rests on every run file (see the module docstring)
            index.depend(checked.module, name)
        step = self.analysis.steps.get(step_key)
        reach = self._reach(step.module) if step is not None else None
        self._scan_reaching(reach)
        kinds: set[str] = set()
        for path, by_workflow in facts.by_holder.items():
            if reach is not None and os.path.abspath(path) not in reach:
                continue  # scanned for another step: what it gives cannot reach this one (and order must not matter)
            for workflow_key, storages in by_workflow.items():
                if step_key in self._steps_of(workflow_key):
                    kinds |= storages
        return kinds

    # --- the scan -----------------------------------------------------------------------

    def _computed(self) -> StorageFacts:
        if self._facts is None:
            self._facts = StorageFacts()
            self._facts.module_names = sorted({m.module for m in self.analysis.reported if m.error is None}
                                              | set(getattr(self.analysis.loader, "discovered", None) or ()))
            self._unscanned = sorted((m for m in self.analysis.reported if m.error is None),
                                     key=lambda m: (m.module, m.path))
            self._queued = {m.path for m in self._unscanned}
            self._unread = self._spelling_files()
        return self._facts

    def _scan_reaching(self, reach: set[str] | None) -> None:
        """Scan the run modules in ``reach``, those whose import can load the step's module (all of them where that
        is not known); what each gives is kept by module, and a step reads only its reach's.

        A scope passes a storage to a workflow only where its module's value flow holds the workflow, which it
        does only by loading the workflow's module, which in turn loads the step's module for the workflow to
        reach the step. Each import on that chain spells the name of the module it loads (``import a.b``,
        ``from . import b``, ``import_module("a.b")``, ``a.b`` on a package), so a module that cannot be the head
        of such a chain of spellings holds no workflow that reaches the step."""
        self._read_reaching(reach)
        rest = []
        for module in self._unscanned:
            if reach is None or os.path.abspath(module.path) in reach:
                self._scan(module)
            else:
                rest.append(module)
        self._unscanned = rest

    def _reach(self, step_module: ModuleSummary) -> set[str] | None:
        """The absolute paths of the run's files whose text, followed through the files it can name, can name the
        file of ``step_module``: its stem (``billing`` of ``billing.py`` and of ``billing/__init__.py``), then
        theirs; and every file inside a package whose ``__init__`` is reached (it loads it unnamed). None: the
        loader cannot tell."""
        found = self._reaches.get(step_module.path)
        if found is not None:
            return found
        spelling = getattr(self.analysis.loader, "spelling", None)
        if spelling is None:
            return None
        rest = {m.path for m in self.analysis.reported} | {
            path for paths in (getattr(self.analysis.loader, "discovered", None) or {}).values() for path in paths}
        reach = {step_module.path}
        rest -= reach
        words = new = {_stem(step_module.path)}
        reached = {step_module.path}
        while reached and rest:
            # a file inside a package loads its __init__ without spelling the package's name
            folders = tuple(os.path.dirname(os.path.abspath(path)) + os.sep for path in reached
                            if os.path.basename(path).split(".", 1)[0] == "__init__")
            inside = {path for path in rest if folders and os.path.abspath(path).startswith(folders)}
            spelled = spelling(rest - inside, new) if new else set()
            reached = inside | spelled
            reach |= reached
            rest -= reached
            new = {_stem(path) for path in reached} - words
            words = words | new
        found = self._reaches[step_module.path] = {os.path.abspath(path) for path in reach}
        return found

    def _spelling_files(self) -> dict[str, tuple[list[str], set[str]]]:
        """The run's other files (namesakes too: two ``main.py`` in two folders) whose text can spell
        ``checkpoint_storage``, by name: a file that cannot holds no call or decorator with that keyword, so it is
        never read (on agent-framework's own tree, most of the files the prefilter skipped)."""
        may_name = getattr(self.analysis.loader, "may_name", None)
        unread = {}
        for name, paths in sorted((getattr(self.analysis.loader, "discovered", None) or {}).items()):
            spelling = {path for path in paths if may_name is None or may_name(path, KEYWORD)}
            if spelling:
                unread[name] = (paths, spelling)
        return unread

    def _read_reaching(self, reach: set[str] | None) -> None:
        """Read the files of ``_unread`` that ``reach`` holds (all of them where it is None), and queue those that
        pass a storage for ``_scan``; the rest stay unread (a file out of every step's reach is never summarized).
        A name none of whose files that spell the keyword passes it where ``_scan`` reads it (most of them declare
        or forward a parameter) is left out: their summaries are not kept, nor added to the index, for a scan that
        would read nothing. Otherwise the name's first file that parses answers for it, as the index would take it
        for an import."""
        loader = self.analysis.loader
        index = self.analysis.index
        peek, keep = getattr(loader, "peek", None), getattr(loader, "keep", None)
        added = False
        for name in [n for n, (_, spelling) in self._unread.items()
                     if reach is None or any(os.path.abspath(path) in reach for path in spelling)]:
            paths, spelling = self._unread.pop(name)
            if peek is not None and keep is not None:
                peeked = [peek(path) for path in paths if path in spelling]
                if not any(summary.error is None and _holders(summary) for summary in peeked):
                    continue
                for summary in peeked:
                    keep(summary)  # read again below, as before
            index.module(name, name)
            named = False
            for path in paths:
                if named and path not in spelling:
                    continue  # a namesake that cannot spell the keyword holds no call to scan
                loaded = loader.load(path)
                if loaded.error is None:
                    index.add(loaded)  # by its path: the name keeps meaning its first file (added first)
                    named = True
                    if path in spelling and loaded.path not in self._queued:
                        self._queued.add(loaded.path)
                        self._unscanned.append(index.by_path.get(loaded.path, loaded))
                        added = True
        if added:
            self._unscanned.sort(key=lambda m: (m.module, m.path))

    def _scan(self, module: ModuleSummary) -> None:
        holders = _holders(module)
        if not holders:
            return
        flow = ModuleFlow(self.analysis.engine, self.analysis.index, module, [(module, f) for f in holders])
        try:
            for function in holders:
                root = flow.roots.get((module.path, function.qualname))
                if root is not None:
                    self._scan_function(flow, module, function, final_frame(root, function))
        finally:
            self.analysis.engine.discard(flow.session)

    def _scan_function(self, flow: ModuleFlow, module: ModuleSummary, function: FunctionSummary, frame: Frame) -> None:
        for call in iter_calls(function.body):
            storage = call.kwarg(KEYWORD)
            receiver = _receiver(call.func)
            if storage is None or (receiver is None and not _spells_constructor(call.func)):
                continue
            # ``wf.build(checkpoint_storage=...)``: the workflows the receiver is; ``FunctionalWorkflow(fn,
            # checkpoint_storage=...)``: the one the call makes
            workflows = self._workflows(flow, function, receiver if receiver is not None else call, frame, 0)
            kinds = {self._kind(flow, value) for value in flow.session.expr(storage, frame)} - {None}
            for key in workflows:
                holder = self._facts.by_holder.setdefault(module.path, {})  # type: ignore[union-attr]
                holder.setdefault(key, set()).update(kinds)
        for nested in module.functions:
            if nested.parent == function.qualname or (function.qualname == "<module>" and nested.parent is None):
                self._scan_decorators(flow, module, nested, frame)

    def _scan_decorators(self, flow: ModuleFlow, module: ModuleSummary, function: FunctionSummary, frame: Frame) -> None:
        """``@workflow(checkpoint_storage=...)`` above ``function``, evaluated where the ``def`` runs."""
        for decorator in function.decorators:
            if not isinstance(decorator, CallExpr) or decorator.kwarg(KEYWORD) is None:
                continue
            made = [v for v in flow.session.expr(decorator.func, frame) if _is_workflow_factory(v)]
            item = next((d for d in self.analysis.workflows_in(module) if d.body is function), None)
            if made and item is not None:
                kinds = {self._kind(flow, v) for v in flow.session.expr(decorator.kwarg(KEYWORD), frame)} - {None}
                holder = self._facts.by_holder.setdefault(module.path, {})  # type: ignore[union-attr]
                holder.setdefault(item.key, set()).update(kinds)

    def _workflows(self, flow: ModuleFlow, function: FunctionSummary, base: Expr, frame: Frame, depth: int) -> set[str]:
        """The keys of the workflows ``base`` (the receiver of ``build``/``run``) is, or was built from."""
        found = {item.key for v in flow.session.expr(base, frame) if isinstance(v, StepValue) and v.kind == "workflow"
                 for item in [self.analysis.step_for(v)] if item is not None}
        if found or depth >= _MAX_CHASE:
            return found
        inner = _receiver(base.func) if isinstance(base, CallExpr) else None
        if inner is not None:
            return self._workflows(flow, function, inner, frame, depth + 1)
        if isinstance(base, Ref) and "." not in base.dotted:  # ``instance = wf.build()``: what the name was bound to
            for binding in function.bindings.get(base.dotted, ()):
                if binding.value is not None:
                    found |= self._workflows(flow, function, binding.value, frame, depth + 1)
        return found

    # --- kinds of storage -----------------------------------------------------------------

    def _kind(self, flow: ModuleFlow, value: Value) -> str | None:
        if isinstance(value, ExternalValue):
            return _external_kind(value.name)
        if isinstance(value, InstanceValue):
            return self._class_kind(flow, value.cls)
        if getattr(value, "kind", None) == "NoneType":
            return None  # ``checkpoint_storage=None``: no storage
        return UNKNOWN_STORAGE

    def _class_kind(self, flow: ModuleFlow, cls: ClassValue) -> str:
        for owner in flow.session.mro(cls):
            if isinstance(owner, ExternalValue):
                kind = _external_kind(f"{owner.name}()")
                if kind != UNKNOWN_STORAGE:
                    return kind
                continue
            if self._encodes(owner):
                return PICKLING
        return IN_MEMORY

    def _encodes(self, cls: ClassValue) -> bool:
        """A method of ``cls`` calls MAF's checkpoint encoding (or makes a FileCheckpointStorage)."""
        module = self.analysis.engine.modules_by_path.get(cls.path)
        if module is None:
            return False
        index = self.analysis.index
        for function in module.functions:
            if function.class_qualname != cls.qualname:
                continue
            for call in iter_calls(function.body):
                target = index.resolve(module, function, call.func) if isinstance(call.func, Ref) else None
                if target is not None and target.kind == "external" and target.name.startswith("agent_framework.") \
                        and target.name.rsplit(".", 1)[-1] in _ENCODERS:
                    return True
        return False

    # --- what a workflow reaches ------------------------------------------------------------

    def _steps_of(self, workflow_key: str) -> frozenset[str]:
        found = self._reached.get(workflow_key)
        if found is None:
            found = self._reached[workflow_key] = self._search_steps(workflow_key)
        return found

    def _search_steps(self, workflow_key: str) -> frozenset[str]:
        """The keys of the steps the workflow's body calls, directly, through helpers or through other steps."""
        item = self.analysis.workflows.get(workflow_key)
        if item is None or item.body is None:
            return frozenset()
        flow = self.analysis.flow(item.module)
        root = flow.roots.get((item.module.path, item.body.qualname))
        if root is None:
            return frozenset()
        steps: set[str] = set()
        seen = {root.id}
        queue = deque([root])
        while queue:
            unit = queue.popleft()
            for calls in unit.site_calls.values():
                for callee, ids in calls.items():
                    if isinstance(callee, StepValue) and callee.kind == "step":
                        made = self.analysis.step_for(callee)
                        if made is not None:
                            steps.add(made.key)
                    for found in flow.units(ids):
                        if found.id not in seen:
                            seen.add(found.id)
                            queue.append(found)
        return frozenset(steps)


def _holders(module: ModuleSummary) -> list[FunctionSummary]:
    """The scopes that pass ``checkpoint_storage=``: in a call of a method that takes a workflow's storage (what
    ``_scan_function`` reads: ``WorkflowBuilder(checkpoint_storage=...)`` and the like are not), or in the
    decorator of a ``def`` they run."""
    decorating = {f.parent or "<module>" for f in module.functions
                  if any(isinstance(d, CallExpr) and d.kwarg(KEYWORD) is not None for d in f.decorators)}
    return [f for f in module.functions
            if f.qualname in decorating or any(call.kwarg(KEYWORD) is not None and (
                _receiver(call.func) is not None or _spells_constructor(call.func)) for call in iter_calls(f.body))]


def _spells_constructor(func: Expr) -> bool:
    """``FunctionalWorkflow(fn, checkpoint_storage=...)``, as spelled (a prefilter: ``_scan_function`` resolves it)."""
    name = func.attr if isinstance(func, Attr) else func.dotted.rpartition(".")[2] if isinstance(func, Ref) else None
    return name == BUILT_WORKFLOW


def _stem(path: str) -> str:
    """The name an import spells to load the file at ``path``: its own, or its folder's for a package."""
    head, tail = os.path.split(path)
    name = tail.split(".", 1)[0]
    return os.path.basename(head) if name == "__init__" else name


def _receiver(func: Expr) -> Expr | None:
    """The object whose ``build``/``run``/``as_agent`` method ``func`` is (``wf`` of ``wf.build``)."""
    if isinstance(func, Attr) and func.attr in _RECEIVING:
        return func.base
    if isinstance(func, Ref) and "." in func.dotted:
        head, _, attr = func.dotted.rpartition(".")
        return Ref(head) if attr in _RECEIVING else None
    return None


def _external_kind(name: str) -> str:
    """MAF's storages by name (``agent_framework.FileCheckpointStorage()``, or a private path to it)."""
    if not name.endswith("()") or "()" in name[:-2] or not name.startswith("agent_framework."):
        return UNKNOWN_STORAGE
    return _MAF_STORAGES.get(name[:-2].rsplit(".", 1)[-1], UNKNOWN_STORAGE)


def _is_workflow_factory(value: Value) -> bool:
    if getattr(value, "kind", None) == "workflow":  # ``workflow(...)`` already called: a StepFactoryValue
        return True
    return isinstance(value, ExternalValue) and value.name.startswith("agent_framework.") \
        and value.name.rsplit(".", 1)[-1] == "workflow"

