"""The project index: names resolved across every analyzed module.

Resolution follows Python's scoping on the summaries alone: a function's own
bindings, then its enclosing functions', then the module's, then star imports
and builtins. Imports are followed through any number of re-exports; names
that leave the analyzed code become ``external`` targets with their full
dotted name (``agent_framework.step``, ``pydantic.BaseModel``).
"""

from __future__ import annotations

import builtins
import os
from dataclasses import dataclass
from typing import Iterator, Protocol

from steplint.core.summary import (
    Binding,
    CallExpr,
    ClassSummary,
    Expr,
    FunctionSummary,
    ModuleSummary,
    Ref,
)

_BUILTIN_NAMES = frozenset(dir(builtins)) | {"None"}
# The framework itself is known by its public names, never analyzed as user code.
EXTERNAL_ROOTS = frozenset({"agent_framework", "builtins", "typing", "typing_extensions", "asyncio"})
_MAX_HOPS = 64


@dataclass(frozen=True, slots=True)
class Target:
    """What a name refers to.

    ``kind`` is "function", "class", "module", "assign" (a name bound to a
    computed value), "external" (outside the analyzed code) or "attribute"
    (an attribute of a function, such as ``tick.__wrapped__``).
    """

    kind: str
    name: str  # qualname in its module, module name, or the external dotted name
    module: ModuleSummary | None = None
    function: FunctionSummary | None = None
    cls: ClassSummary | None = None
    binding: Binding | None = None
    scope: FunctionSummary | None = None  # for "assign": the scope that bound it
    attribute: str = ""

    @property
    def key(self) -> str:
        if self.kind == "external":
            return f"external:{self.name}"
        assert self.module is not None
        # By file, not module name: two files of one run may share a name (scripts, conftest.py).
        if self.kind == "module":
            return f"module:{self.module.path}"
        suffix = f".{self.attribute}" if self.attribute else ""
        return f"{self.module.path}:{self.name}{suffix}"


class ModuleFinder(Protocol):
    """Summarizes the module an import names: searched from the project's roots, or only
    from the folder of the importing file ``near`` up."""

    def __call__(self, name: str, near: str | None = None) -> ModuleSummary | None: ...


def external(name: str) -> Target:
    return Target("external", name)


class ProjectIndex:
    """Modules by name; ``loader`` brings in imported modules that were not given.

    A module is loaded the first time a name resolves into it, so a file's
    findings depend on what it imports, not on which other files were passed.
    """

    def __init__(self, summaries: list[ModuleSummary], loader: ModuleFinder | None = None):
        self.summaries: list[ModuleSummary] = []
        self._modules: dict[str, ModuleSummary] = {}
        self._paths: set[str] = set()
        self.by_path: dict[str, ModuleSummary] = {}
        self._missing: set[str] = set()
        self._found_near: dict[tuple[str, str], ModuleSummary | None] = {}  # (name, importer's folder) -> module
        self._folders: dict[str, str] = {}  # importer's path -> its folder, asked for at every import it makes
        self._resolving: set[tuple[object, ...]] = set()
        self._all_candidates = False  # ``resolve_all`` collects the other candidates of a name's first lookup
        self._alternatives: list[Target] = []
        self._loader = loader
        self.functions: dict[tuple[str, str], FunctionSummary] = {}
        self.classes: dict[tuple[str, str], ClassSummary] = {}
        self.children: dict[tuple[str, str], list[FunctionSummary]] = {}
        #: module name -> the module names resolution inside it asked for (found or not):
        #: what a module's findings can depend on is what these edges reach from it.
        self.edges: dict[str, set[str]] = {}
        for summary in summaries:
            self.add(summary)

    def add(self, summary: ModuleSummary) -> None:
        if summary.error is not None or summary.path in self._paths:
            return
        self._paths.add(summary.path)
        self.by_path[summary.path] = summary
        self.summaries.append(summary)
        self._modules.setdefault(summary.module, summary)
        for function in summary.functions:
            self.functions[(summary.path, function.qualname)] = function
            if function.parent is not None:
                self.children.setdefault((summary.path, function.parent), []).append(function)
        for cls in summary.classes:
            self.classes[(summary.path, cls.qualname)] = cls

    def depend(self, origin: str, name: str) -> None:
        """Module ``origin``'s findings depend on module ``name`` (a run file), which need not be read for it."""
        asked = self.edges.get(origin)
        if asked is None:
            asked = self.edges[origin] = set()
        asked.add(name)

    def module(self, name: str, origin: str) -> ModuleSummary | None:
        """The module called ``name``, asked for while resolving a name inside module ``origin``."""
        self.depend(origin, name)
        if name.split(".", 1)[0] in EXTERNAL_ROOTS:
            # Known by its public names even when the run holds a copy of its source (agent-framework's own
            # tree, a vendored copy): an import of it must not run that copy, wherever the linting starts.
            return None
        found = self._modules.get(name)
        if found is not None or self._loader is None:
            return found
        if name not in self._missing:
            loaded = self._loader(name)
            if loaded is not None and loaded.error is None:
                self.add(loaded)
                # A namespace package's module found under a project root answers to the name it was imported by.
                return self._modules.setdefault(name, self.by_path.get(loaded.path, loaded))
            self._missing.add(name)
        return self._near(name, origin)

    def _near(self, name: str, origin: str) -> ModuleSummary | None:
        """``name`` found from the importing module's own folder up (what it means depends on who asks)."""
        importer = self._modules.get(origin)
        if importer is None or self._loader is None:
            return None
        folder = self._folders.get(importer.path)
        if folder is None:
            folder = self._folders[importer.path] = os.path.dirname(os.path.abspath(importer.path))
        key = (name, folder)
        if key in self._found_near:
            return self._found_near[key]
        loaded = self._loader(name, importer.path)
        found = None
        if loaded is not None and loaded.error is None:
            self.add(loaded)
            found = self.by_path.get(loaded.path, loaded)
        self._found_near[key] = found
        return found

    # --- scopes --------------------------------------------------------------------

    def function(self, module: ModuleSummary, qualname: str | None) -> FunctionSummary | None:
        if qualname is None:
            return None
        return self.functions.get((module.path, qualname))

    def decorator_targets(self, module: ModuleSummary, function: FunctionSummary) -> Iterator[Target | None]:
        """Each decorator's target (for ``@d(...)``, the target of ``d``), resolved where it is evaluated."""
        for candidates in self.decorator_candidates(module, function):
            yield candidates[0] if candidates else None

    def decorator_candidates(self, module: ModuleSummary, function: FunctionSummary) -> Iterator[list[Target]]:
        """Each decorator's possible targets: a name bound in branches (``try: from agent_framework import
        step`` / ``except ImportError: step = None``) may be any of them."""
        scope = self.function(module, function.parent)
        for decorator in function.decorators:
            callee = decorator.func if isinstance(decorator, CallExpr) else decorator
            yield self.resolve_all(module, scope, callee)

    def resolve_all(self, module: ModuleSummary, scope: FunctionSummary | None, expr: Expr) -> list[Target]:
        """Every target a dotted ``Ref`` may have, the one ``resolve`` gives first."""
        if not isinstance(expr, Ref):
            return []
        head, *rest = expr.dotted.split(".")
        self._all_candidates = True
        try:
            first = self.lookup(module, scope, head)
            heads = [first, *self._alternatives] if first is not None else list(self._alternatives)
        finally:
            self._all_candidates = False
            self._alternatives = []
        found: list[Target] = []
        for target in heads:
            for attribute in rest:
                if target is None:
                    break
                target = self.attribute(target, attribute)
            if target is not None and target not in found:
                found.append(target)
        return found

    def is_staticmethod(self, module: ModuleSummary, function: FunctionSummary) -> bool:
        return any(
            target is not None and target.key == "external:builtins.staticmethod"
            for target in self.decorator_targets(module, function)
        )

    def lexical_descendants(self, module: ModuleSummary, function: FunctionSummary) -> Iterator[FunctionSummary]:
        """Functions defined (at any depth) inside ``function``'s body."""
        stack = list(self.children.get((module.path, function.qualname), ()))
        while stack:
            child = stack.pop()
            yield child
            stack.extend(self.children.get((module.path, child.qualname), ()))

    def resolve(
        self,
        module: ModuleSummary,
        scope: FunctionSummary | None,
        expr: Expr,
        before_order: int | None = None,
    ) -> Target | None:
        """The target of a dotted ``Ref`` read in ``scope`` of ``module``."""
        if not isinstance(expr, Ref):
            return None
        head, *rest = expr.dotted.split(".")
        target = self.lookup(module, scope, head, before_order)
        for attribute in rest:
            if target is None:
                return None
            target = self.attribute(target, attribute)
        return target

    def _bound_class(self, module: ModuleSummary, function: FunctionSummary, name: str) -> Target | None:
        """A method's ``self``/``cls`` stands for its class (attribute lookups go through the MRO)."""
        if function.class_qualname is None or not function.params or function.params[0].name != name:
            return None
        if self.is_staticmethod(module, function):
            return None
        cls = self.classes.get((module.path, function.class_qualname))
        return Target("class", cls.qualname, module, cls=cls) if cls is not None else None

    def lookup(
        self,
        module: ModuleSummary,
        scope: FunctionSummary | None,
        name: str,
        before_order: int | None = None,
    ) -> Target | None:
        """Resolve a bare name from ``scope`` outwards (LEGB, classes skipped)."""
        current = scope
        while current is not None and current.qualname != "<module>":
            if name in current.declared_global:
                break
            bindings = current.bindings.get(name)
            if bindings:
                binding = self._chosen(module, current, name, bindings, before_order)
                before_order = None
                if binding is None:
                    return None
                if binding.kind == "param":
                    return self._bound_class(module, current, name) or self._annotated_value(module, current, name)
                return self._binding_target(module, current, name, binding)
            before_order = None
            current = self.function(module, current.parent)
        return self.module_attribute(module, name, before_order)

    def _chosen(
        self, module: ModuleSummary, scope: FunctionSummary | None, name: str, bindings: list[Binding],
        before_order: int | None,
    ) -> Binding | None:
        run = _branch_run(bindings, before_order)
        chosen = _preferred(run)
        if self._all_candidates and len(run) > 1:
            self._all_candidates = False  # only the name asked for, not the names its bindings resolve through
            try:
                for binding in run:
                    if binding is not chosen and binding.kind != "param":
                        target = self._binding_target(module, scope, name, binding)
                        if target is not None:
                            self._alternatives.append(target)
            finally:
                self._all_candidates = True
        return chosen

    def find_binding(
        self, module: ModuleSummary, scope: FunctionSummary | None, name: str
    ) -> tuple[FunctionSummary, list[Binding]] | None:
        """The function scope (``scope`` or an enclosing one) that binds ``name``, with its bindings.

        None when the name is global (module-level, builtin) as seen from ``scope``.
        """
        current = scope
        while current is not None and current.qualname != "<module>":
            if name in current.declared_global:
                return None
            bindings = current.bindings.get(name)
            if bindings:
                return current, bindings
            current = self.function(module, current.parent)
        return None

    def module_attribute(self, module: ModuleSummary, name: str, before_order: int | None = None) -> Target | None:
        # Import cycles (``a`` takes ``x`` from ``b``, ``b`` from ``a``) resolve to nothing.
        place = (module.path, name, before_order)
        if place in self._resolving:
            return None
        self._resolving.add(place)
        try:
            return self._module_attribute(module, name, before_order)
        finally:
            self._resolving.discard(place)

    def _module_attribute(self, module: ModuleSummary, name: str, before_order: int | None) -> Target | None:
        bindings = module.bindings.get(name)
        if bindings:
            binding = self._chosen(module, None, name, bindings, before_order)
            if binding is not None:
                return self._binding_target(module, None, name, binding)
        # Only a package has submodules: ``mod.py`` never makes ``mod.x`` importable.
        submodule = self.module(f"{module.module}.{name}", module.module) if module.is_package and module.module else None
        if submodule is not None:
            return Target("module", submodule.module, submodule)
        for star in module.star_imports:
            target = self.qualified(f"{star}.{name}", module.module)
            if target is not None and not (target.kind == "external" and self.module(star, module.module) is not None):
                return target
        if name in _BUILTIN_NAMES:
            return external(f"builtins.{name}")
        return None

    def _binding_target(
        self, module: ModuleSummary, scope: FunctionSummary | None, name: str, binding: Binding
    ) -> Target | None:
        if binding.kind == "def":
            function = self.functions.get((module.path, binding.target))
            return Target("function", binding.target, module, function=function) if function else None
        if binding.kind == "class":
            cls = self.classes.get((module.path, binding.target))
            return Target("class", binding.target, module, cls=cls) if cls else None
        if binding.kind == "import":
            return self.imported(binding.target, binding.imported_name, module.module)
        if binding.kind == "assign" and binding.value is not None:
            if isinstance(binding.value, Ref):
                return self.resolve(module, scope, binding.value, before_order=binding.order)
            instance = self._instance_of(module, scope, binding)
            if instance is not None:
                return instance
            qualname = f"{scope.qualname}.<locals>.{name}" if scope is not None else name
            return Target("assign", qualname, module, binding=binding, scope=scope)
        if binding.kind == "with":
            # ``async with asyncio.TaskGroup() as tg``: taken as the value the call made
            # (``__aenter__`` returns it for TaskGroup, files, locks and most context managers).
            return self.call_result(module, scope, binding)
        return None

    def _instance_of(self, module: ModuleSummary, scope: FunctionSummary | None, binding: Binding) -> Target | None:
        """``svc = Service()``: an instance of an analyzed class stands for its class in attribute lookups."""
        callee = self._callee_before(module, scope, binding)
        return callee if callee is not None and callee.kind == "class" else None

    def call_result(self, module: ModuleSummary, scope: FunctionSummary | None, binding: Binding) -> Target | None:
        """The value made by the external call a binding holds, named ``asyncio.TaskGroup()``.

        Its attributes are ``asyncio.TaskGroup().create_task``; ``maf_name`` and
        ``typing_name`` never match such names, so they stay values, not types.
        """
        callee = self._callee_before(module, scope, binding)
        if callee is not None and callee.kind == "external":
            return external(f"{callee.name}()")
        return None

    def _callee_before(self, module: ModuleSummary, scope: FunctionSummary | None, binding: Binding) -> Target | None:
        """What the call a binding holds calls, read as of before the binding (``s = s.copy()``).

        A binding whose callee leads back to itself resolves to nothing.
        """
        call = binding.value
        if not isinstance(call, CallExpr):
            return None
        place = (module.path, scope.qualname if scope is not None else "", binding.order, "callee")
        if place in self._resolving:
            return None
        self._resolving.add(place)
        try:
            return self.resolve(module, scope, call.func, before_order=binding.order)
        finally:
            self._resolving.discard(place)

    def _annotated_value(self, module: ModuleSummary, function: FunctionSummary, name: str) -> Target | None:
        """A parameter annotated with an external class (``tg: asyncio.TaskGroup``) is a value of it."""
        for param in function.params:
            if param.name == name and isinstance(param.annotation, Ref):
                cls = self.resolve(module, self.function(module, function.parent), param.annotation)
                if cls is not None and cls.kind == "external" and "()" not in cls.name:
                    return external(f"{cls.name}()")
                if cls is not None and cls.kind == "class":
                    return cls  # ``svc: Service``: its methods resolve through the class
        return None

    # --- qualified names and attributes --------------------------------------------

    def imported(self, module_name: str, name: str, origin: str) -> Target | None:
        """What ``from module_name import name`` (or ``import module_name``) binds in module ``origin``."""
        if module_name.split(".", 1)[0] in EXTERNAL_ROOTS:
            return external(f"{module_name}.{name}" if name else module_name)
        module = self.module(module_name, origin)
        if module is None:
            return self.qualified(f"{module_name}.{name}" if name else module_name, origin)
        target = Target("module", module.module, module)
        return self.attribute(target, name) if name else target

    def qualified(self, dotted: str, origin: str, _hops: int = 0) -> Target | None:
        """Resolve an absolute dotted name named in module ``origin``, following re-exports."""
        if _hops > _MAX_HOPS:
            return None
        parts = dotted.split(".")
        if parts[0] in EXTERNAL_ROOTS:
            return external(dotted)
        # Walk attributes from the outermost module, as the import system does:
        # a package's own binding of ``fetch`` shadows its submodule ``fetch``.
        for cut in range(1, len(parts) + 1):
            module = self.module(".".join(parts[:cut]), origin)
            if module is None:
                continue
            target: Target | None = Target("module", module.module, module)
            for attribute in parts[cut:]:
                if target is None:
                    return None
                target = self.attribute(target, attribute, _hops + 1)
            return target
        return external(dotted)

    def attribute(self, target: Target, attribute: str, _hops: int = 0) -> Target | None:
        if target.kind == "external":
            return external(f"{target.name}.{attribute}")
        if target.kind == "module" and target.module is not None:
            if _hops > _MAX_HOPS:
                return None
            return self.module_attribute(target.module, attribute)
        if target.kind == "class" and target.cls is not None and target.module is not None:
            return self.class_attribute(target.module, target.cls, attribute)
        if target.kind == "function" and target.module is not None and not target.attribute:
            return Target("attribute", target.name, target.module, function=target.function, attribute=attribute)
        if target.kind == "assign" and target.binding is not None and target.module is not None:
            # ``tg = asyncio.TaskGroup()``: ``tg.create_task`` is ``asyncio.TaskGroup().create_task``.
            made = self.call_result(target.module, target.scope, target.binding)
            return self.attribute(made, attribute, _hops + 1) if made is not None else None
        return None

    def class_attribute(self, module: ModuleSummary, cls: ClassSummary, attribute: str) -> Target | None:
        for owner_module, owner in self.mro(module, cls):
            if attribute not in owner.body_names:
                continue
            qualname = f"{owner.qualname}.{attribute}"
            function = self.functions.get((owner_module.path, qualname))
            if function is not None:
                return Target("function", qualname, owner_module, function=function)
            nested = self.classes.get((owner_module.path, qualname))
            if nested is not None:
                return Target("class", qualname, owner_module, cls=nested)
            return None
        return None

    def mro(self, module: ModuleSummary, cls: ClassSummary) -> Iterator[tuple[ModuleSummary, ClassSummary]]:
        """The class and its analyzed bases, depth first, each once."""
        seen: set[tuple[str, str]] = set()
        stack = [(module, cls)]
        while stack:
            owner_module, owner = stack.pop(0)
            if (owner_module.path, owner.qualname) in seen:
                continue
            seen.add((owner_module.path, owner.qualname))
            yield owner_module, owner
            scope = self.function(owner_module, owner.parent)
            for base in owner.bases:
                target = self.resolve(owner_module, scope, base)
                if target is not None and target.kind == "class" and target.cls is not None:
                    stack.append((target.module, target.cls))  # type: ignore[arg-type]

    def base_targets(self, module: ModuleSummary, cls: ClassSummary) -> Iterator[Target]:
        """Every base of ``cls`` and of its analyzed bases, resolved (external ones included)."""
        for owner_module, owner in self.mro(module, cls):
            scope = self.function(owner_module, owner.parent)
            for base in owner.bases:
                base_ref = base.func if isinstance(base, CallExpr) else base
                if not isinstance(base_ref, Ref) and hasattr(base, "base"):
                    base_ref = base.base  # ``Generic[T]``, ``BaseModel[...]``
                target = self.resolve(owner_module, scope, base_ref)
                if target is not None:
                    yield target


def _branch_run(bindings: list[Binding], before_order: int | None) -> list[Binding]:
    """The bindings a read may see: the last one not in a branch, and every binding in a branch after it."""
    seen = [b for b in bindings if before_order is None or b.order < before_order]
    run: list[Binding] = []
    for binding in reversed(seen):
        run.append(binding)
        if not binding.conditional:
            break
    return list(reversed(run))


def _preferred(run: list[Binding]) -> Binding | None:
    """Of bindings made in branches, the first that defines or imports the name (the path taken when the
    import works: ``try: import x`` / ``except ImportError: x = None``); else the last one."""
    if len(run) > 1:
        for binding in run:
            if binding.conditional and binding.kind in ("import", "def", "class"):
                return binding
    return run[-1] if run else None


def _latest(bindings: list[Binding], before_order: int | None) -> Binding | None:
    if before_order is None:
        return bindings[-1]
    candidates = [b for b in bindings if b.order < before_order]
    return candidates[-1] if candidates else None


