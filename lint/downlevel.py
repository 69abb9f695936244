"""Rewrite syntax newer than the running interpreter into older equivalents.

Only used after ``ast.parse`` failed: if libcst (whose grammar does not
depend on the running Python) accepts the file, its newer constructs are
replaced in place, lines kept, so that ``ast`` can summarize it:
``type X = v`` becomes ``X = v`` (judged like any alias),
``def f[T](...)``/``class C[T]`` lose their type parameters, ``except*``
becomes ``except``.
"""

from __future__ import annotations

import libcst as cst


class _Downlevel(cst.CSTTransformer):
    def leave_TypeAlias(self, original: cst.CSTNode, updated: cst.TypeAlias) -> cst.BaseSmallStatement:
        return cst.Assign(targets=[cst.AssignTarget(target=updated.name)], value=updated.value)

    def leave_FunctionDef(self, original: cst.CSTNode, updated: cst.FunctionDef) -> cst.FunctionDef:
        return updated.with_changes(type_parameters=None) if updated.type_parameters else updated

    def leave_ClassDef(self, original: cst.CSTNode, updated: cst.ClassDef) -> cst.ClassDef:
        return updated.with_changes(type_parameters=None) if updated.type_parameters else updated

    def leave_TryStar(self, original: cst.CSTNode, updated: cst.TryStar) -> cst.Try:
        handlers = [
            cst.ExceptHandler(body=h.body, type=h.type, name=h.name, leading_lines=h.leading_lines)
            for h in updated.handlers
        ]
        return cst.Try(
            body=updated.body,
            handlers=handlers,
            orelse=updated.orelse,
            finalbody=updated.finalbody,
            leading_lines=updated.leading_lines,
        )


def downlevel(text: str) -> str | None:
    """Older-syntax text for ``text``, or None when libcst rejects it too."""
    try:
        module = cst.parse_module(text)
        return module.visit(_Downlevel()).code
    except Exception:  # libcst's parser and codegen raise several unrelated types
        return None
