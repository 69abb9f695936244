"""Python's own parser, quiet, and its idea of a line break: what every reader of source text shares."""

from __future__ import annotations

import ast
import re
import warnings

LINE_BREAK = re.compile(r"\r\n|\r|\n")  # as Python's tokenizer breaks lines


def quiet_parse(source: str | bytes, filename: str = "<unknown>", mode: str = "exec") -> ast.AST:
    """``ast.parse`` without its warnings (invalid escapes...): they are about the checked code, not steplint's output."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, filename=filename, mode=mode)
