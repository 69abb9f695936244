"""The forms of ``case`` patterns: what each binds from the subject, for the value-flow analysis.

A pattern binds as an assignment does: a capture takes the value matched at its place, a
sequence pattern's items the subject's items, a mapping pattern's values the items at their keys,
a class pattern's arguments the subject's attributes. Literal and value patterns bind nothing; their
value is kept, to tell which cases a known subject matches.
"""

from __future__ import annotations

import ast
from typing import Callable

from steplint.core.summary import (
    CapturePattern,
    ClassPattern,
    Const,
    MappingPattern,
    OrPattern,
    PatternForm,
    SequencePattern,
    ValuePattern,
)
from steplint.summaries.expression_forms import ExpressionForms


def pattern_form(forms: ExpressionForms, node: ast.pattern) -> PatternForm:
    handler = _FORMS.get(type(node))
    return handler(forms, node) if handler is not None else None


def _capture(forms: ExpressionForms, node: ast.MatchAs) -> PatternForm:
    inner = pattern_form(forms, node.pattern) if node.pattern is not None else None
    return CapturePattern(node.name, inner)


def _star(forms: ExpressionForms, node: ast.MatchStar) -> PatternForm:
    return CapturePattern(node.name)


def _sequence(forms: ExpressionForms, node: ast.MatchSequence) -> PatternForm:
    star = next((index for index, item in enumerate(node.patterns) if type(item) is ast.MatchStar), -1)
    return SequencePattern(tuple(pattern_form(forms, item) for item in node.patterns), star)


def _mapping(forms: ExpressionForms, node: ast.MatchMapping) -> PatternForm:
    keys = tuple(forms.of(key) for key in node.keys)
    return MappingPattern(keys, tuple(pattern_form(forms, item) for item in node.patterns), node.rest)


def _class(forms: ExpressionForms, node: ast.MatchClass) -> PatternForm:
    keywords = tuple(zip(node.kwd_attrs, (pattern_form(forms, item) for item in node.kwd_patterns)))
    return ClassPattern(forms.of(node.cls), tuple(pattern_form(forms, item) for item in node.patterns), keywords)


def _alternatives(forms: ExpressionForms, node: ast.MatchOr) -> PatternForm:
    return OrPattern(tuple(pattern_form(forms, item) for item in node.patterns))


def _value(forms: ExpressionForms, node: ast.MatchValue) -> PatternForm:
    return ValuePattern(forms.of(node.value))


def _singleton(forms: ExpressionForms, node: ast.MatchSingleton) -> PatternForm:
    return ValuePattern(Const(node.value), identity=True)


_FORMS: dict[type, Callable[[ExpressionForms, ast.pattern], PatternForm]] = {
    ast.MatchAs: _capture,
    ast.MatchStar: _star,
    ast.MatchSequence: _sequence,
    ast.MatchMapping: _mapping,
    ast.MatchClass: _class,
    ast.MatchOr: _alternatives,
    ast.MatchValue: _value,
    ast.MatchSingleton: _singleton,
}
