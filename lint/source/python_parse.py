"""Python's own parser, quiet, and its idea of a line break: what every reader of source text shares."""

from __future__ import annotations

import ast
import re
import symtable
import warnings

LINE_BREAK = re.compile(r"\r\n|\r|\n")  # as Python's tokenizer breaks lines


def quiet_parse(source: str | bytes, filename: str = "<unknown>", mode: str = "exec") -> ast.AST:
    """``ast.parse`` without its warnings (invalid escapes...): they are about the checked code, not steplint's output."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, filename=filename, mode=mode)


def surely_parses(source: str, filename: str = "<unknown>") -> bool:
    """True when the parser accepts ``source``; False when it or the symbol table refuses it (then ask
    ``quiet_parse``). About 30% quicker than ``ast.parse``: no Python objects are made for the tree."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            symtable.symtable(source, filename, "exec")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    return True
