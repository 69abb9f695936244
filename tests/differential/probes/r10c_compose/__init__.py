"""Functional-style composition around steps: compose/pipe, currying, partials, stacked decorators."""
