"""Build a ``ModuleSummary`` from source text in one pass over the syntax tree.

The tree comes from ``steplint.source.reading``; this module and the walks it
builds on only read it. They record, per function:

- the calls rules judge (``CallSite``), in the innermost function that
  lexically contains them (lambdas and comprehensions belong to their
  function), with their context: awaited, inside which enclosing calls'
  arguments, inside a comprehension or a lambda (``expression_walk``);
- the bindings of each scope (what the project index resolves names with);
- the statements in order, as small forms (``core.summary``'s statement
  classes, ``statement_walk``; expressions' in ``expression_forms``): what the
  value-flow analysis (``steplint.analysis.interpreter``) runs. Lambdas become
  functions of their own (``outer.<lambda1>``) so that values can flow
  through them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from steplint.core.summary import Binding, CallSite, ClassSummary, FunctionSummary, ModuleSummary, Stmt
from steplint.source.reading import ParsedSource
from steplint.summaries.expression_forms import dotted_name, to_expr
from steplint.summaries.scopes import Scope
from steplint.summaries.statement_walk import StatementWalker
from steplint.summaries.suppression_comments import scan_suppressions

# What other stages read of the syntax tree the way summaries do (``fix_builder``, ``fingerprint``).
__all__ = ["TopLevelPart", "dotted_name", "summarize", "summarize_in_parts", "to_expr"]


def summarize(parsed: ParsedSource, path: str, module: str, is_package: bool) -> ModuleSummary:
    summary = _empty_summary(parsed, path, module, is_package)
    if parsed.error is not None:
        summary.error = parsed.error
        return summary
    builder = _Builder(summary, parsed)
    builder.build(parsed.tree)
    return summary


@dataclass(slots=True, eq=False)
class TopLevelPart:
    """What one group of top-level statements adds to its module's summary.

    The share depends only on the group's statements (their text and lines)
    and on four counters of the statements before it: the module scope's
    binding order, its lambdas, the file's display sites, and a digest of how
    many ``def`` statements made each qualified name. So a group an
    edit did not reach, whose counters ``entry`` are unchanged, is added
    again as it is instead of being summarized anew (``summarize_in_parts``).
    """

    entry: tuple[int, int, int, int]
    exit: tuple[int, int, int, int]
    bindings: tuple[tuple[str, Binding], ...]
    statements: tuple[Stmt, ...]
    functions: tuple[FunctionSummary, ...]
    classes: tuple[ClassSummary, ...]
    calls: tuple[CallSite, ...]
    star_imports: tuple[str, ...]
    makes_generator: bool
    defined: tuple[str, ...]  # the qualified names its ``def`` statements made, redefinition marks aside


def summarize_in_parts(
    parsed: ParsedSource, path: str, module: str, is_package: bool,
    groups: list[list[ast.stmt]], earlier: list[TopLevelPart | None],
) -> tuple[ModuleSummary, list[TopLevelPart]]:
    """``summarize`` of a parsed file whose top-level statements come in ``groups``, and each group's part.

    ``earlier[i]`` is the part group ``i`` had in a previous version of the
    file with the same text at the same lines (None: unknown): it is used
    again when the counters before the group match. The summary equals
    ``summarize``'s.
    """
    summary = _empty_summary(parsed, path, module, is_package)
    builder = _Builder(summary, parsed)
    return summary, builder.build_parts(groups, earlier)


def _empty_summary(parsed: ParsedSource, path: str, module: str, is_package: bool) -> ModuleSummary:
    summary = ModuleSummary(path=path, module=module, is_package=is_package, line_count=parsed.line_count)
    summary.suppressions = scan_suppressions(parsed.text, parsed)
    return summary


class _Builder(StatementWalker):
    """The walk over one whole file, or over its top-level statements in groups (``TopLevelPart``)."""

    def build(self, tree: ast.Module) -> None:
        module_scope = self._enter_module()
        self.statements(tree.body)
        self._leave_module(module_scope)

    def build_parts(self, groups: list[list[ast.stmt]], earlier: list[TopLevelPart | None]) -> list[TopLevelPart]:
        module_scope = self._enter_module()
        self.module_bound = []
        parts = []
        for statements, part in zip(groups, earlier):
            if part is not None and part.entry == self._counters(module_scope):
                self._add_part(module_scope, part)
            else:
                part = self._part(module_scope, statements)
            parts.append(part)
        self._leave_module(module_scope)
        return parts

    def _enter_module(self) -> Scope:
        module_scope = Scope(self.module_function, self.summary.bindings, "")
        self.function_stack.append(module_scope)
        self.binding_stack.append(module_scope)
        self.loaded.append(set())
        return module_scope

    def _leave_module(self, module_scope: Scope) -> None:
        self.module_function.body = tuple(module_scope.statements)
        self.summary.functions.insert(0, self.module_function)
        self.summary.star_imports = tuple(self.star_imports)

    def _counters(self, module_scope: Scope) -> tuple[int, int, int, int]:
        return module_scope.order, module_scope.lambdas, self.forms.sites, self.defined_digest

    def _part(self, module_scope: Scope, statements: list[ast.stmt]) -> TopLevelPart:
        summary, module_function, bound = self.summary, self.module_function, self.module_bound
        entry = self._counters(module_scope)
        bindings, statements_before, functions, classes = (
            len(bound), len(module_scope.statements), len(summary.functions), len(summary.classes))
        calls, star_imports, defined = len(module_function.calls), len(self.star_imports), len(self.defined_here)
        was_generator, module_function.is_generator = module_function.is_generator, False
        self.statements(statements)
        part = TopLevelPart(
            entry, self._counters(module_scope), tuple(bound[bindings:]), tuple(module_scope.statements[statements_before:]),
            tuple(summary.functions[functions:]), tuple(summary.classes[classes:]),
            tuple(module_function.calls[calls:]), tuple(self.star_imports[star_imports:]), module_function.is_generator,
            tuple(self.defined_here[defined:]),
        )
        module_function.is_generator = was_generator or part.makes_generator
        return part

    def _add_part(self, module_scope: Scope, part: TopLevelPart) -> None:
        bindings = self.summary.bindings
        for name, binding in part.bindings:
            bindings.setdefault(name, []).append(binding)
            module_scope.locals_.add(name)
        self.module_bound.extend(part.bindings)
        module_scope.statements.extend(part.statements)
        self.summary.functions.extend(part.functions)
        self.summary.classes.extend(part.classes)
        self.module_function.calls.extend(part.calls)
        self.star_imports.extend(part.star_imports)
        self.module_function.is_generator = self.module_function.is_generator or part.makes_generator
        for qualname in part.defined:
            self.count_definition(qualname)
        module_scope.order, module_scope.lambdas, self.forms.sites, _ = part.exit
