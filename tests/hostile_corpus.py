"""Hostile inputs for the linter, generated into a folder at test time (nothing binary is committed).

Every ``Hostile`` case is one file's bytes and what the linter must say about it:
either the fragment its STP900 message must contain (the file is broken), or,
for a valid file, exactly its findings. Valid files carry the same pair of steps
(``outer`` calls ``inner``: one STP001), so a case that decodes, splits lines or
counts columns wrongly shows up as a finding in the wrong place, not only as a
crash. The filesystem oddities (FIFOs, symlink loops, ...) are built by
``tests/test_hostile_inputs.py`` itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# ``outer`` calls ``inner``: STP001 on the line of ``await inner(x)``, at ``inner``.
STEPS = """from agent_framework import step


@step
async def inner(x: int) -> int:
    return x


@step
async def outer(x: int) -> int:
    return await inner(x)
"""
CALL = re.compile(r"await\s+(?P<callee>inner|ｉｎｎｅｒ)\(")


@dataclass(frozen=True)
class Hostile:
    name: str
    data: bytes
    broken: str | None = None  # a fragment of the STP900 message; None: the file is valid
    line: int | None = None  # for a broken file, the line STP900 must point at (when it is known)
    encoding: str = "utf-8"  # how to read a valid file's text back, to place its expected findings
    counts: dict[str, int] | None = None  # for a valid file: findings per code, instead of their places

    def expected(self) -> set[tuple[int, int, str]]:
        """(line, column, code) for a valid file: STP001 at every ``await inner(`` of its text."""
        text = self.data.decode(self.encoding, errors="replace")
        if text.startswith("\ufeff"):
            text = text[1:]
        found = set()
        for number, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
            for match in CALL.finditer(line):
                found.add((number, match.start("callee") + 1, "STP001"))
        return found


def _with_steps(prefix: str = "", suffix: str = "", newline: str = "\n") -> str:
    return (prefix + STEPS + suffix).replace("\n", newline)


def _many_steps(count: int) -> bytes:
    """``count`` steps, each calling the next: count - 1 findings of STP001."""
    lines = ["from agent_framework import step", ""]
    for index in range(count):
        lines += ["", "@step", f"async def s{index}(x: int) -> int:"]
        lines.append(f"    return await s{index + 1}(x)" if index + 1 < count else "    return x")
    return ("\n".join(lines) + "\n").encode()


def _helper_chain(count: int) -> bytes:
    """A step that reaches another through ``count`` plain helpers: one STP002, with a long chain."""
    lines = ["from agent_framework import step", "", "", "@step", "async def last(x: int) -> int:", "    return x", ""]
    for index in range(count):
        callee = f"h{index + 1}" if index + 1 < count else "last"
        lines += ["", f"async def h{index}(x: int) -> int:", f"    return await {callee}(x)"]
    lines += ["", "", "@step", "async def first(x: int) -> int:", "    return await h0(x)"]
    return ("\n".join(lines) + "\n").encode()


def _nested_blocks(depth: int) -> bytes:
    body = "".join(" " * level + "if x:\n" for level in range(depth))
    return (body + " " * depth + "pass\n").encode()


def _nested_defs(depth: int) -> bytes:
    body = "".join("    " * level + f"def f{level}():\n" for level in range(depth))
    return (body + "    " * depth + "return 1\n").encode()


PY312 = '''from agent_framework import step

type Alias[T] = list[T]
type Plain = int


@step
async def inner[T](x: T) -> T:
    return x


class Box[T: int, *Ts, **P]:
    pass


@step
async def outer[T = int](x: int) -> str:
    try:
        pass
    except* ValueError:
        pass
    return f"{'nested'} {f"{await inner(x)}"} {x!r:>{len("é")}}"
'''

PY314 = STEPS.replace(
    "async def outer(x: int) -> int:\n    return await inner(x)\n",
    "async def outer(x: int) -> str:\n"
    "    try:\n"
    "        pass\n"
    "    except ValueError, TypeError:\n"
    "        pass\n"
    '    return t"{await inner(x)}"\n',
)

STUB = '''from typing import overload

from agent_framework import step


@step
async def inner(x: int) -> int: ...


@step
async def outer(x: int) -> int: ...


@overload
def pick(x: int) -> int: ...
@overload
def pick(x: str) -> str: ...


class Config:
    retries: int = ...
    def run(self, *args: object, **kwargs: object) -> None: ...
'''


def corpus() -> list[Hostile]:
    """The hostile files: bytes the linter must survive, each with what it must report."""
    latin1 = _with_steps("# -*- coding: latin-1 -*-\nGREETING = 'héllo wörld'\n").replace(
        "    return await inner(x)", "    s = 'ünïcödé'; return await inner(x)"
    )
    long_string_line = "BLOB = '" + "é" * 2_500_000 + "'\n"  # 5 MB of UTF-8 on one line
    long_call_line = "    data = [" + "'é', " * 200_000 + "]; return await inner(x)"  # 1.2 MB, 200 000 nodes
    return [
        # --- bytes and encodings ---
        Hostile("nul_byte.py", _with_steps().encode().replace(b"int) -> int:\n    return x", b"int) -> int:\n    return x\x00", 1), "NUL byte", line=6),
        Hostile("invalid_utf8.py", _with_steps(suffix="BAD = '\xff'\n").encode("latin-1"), "not valid utf-8", line=12),
        Hostile("invalid_utf8_in_comment.py", _with_steps("# caf\xe9 \xff\n").encode("latin-1")),  # compile() and import accept it
        Hostile("bogus_cookie.py", _with_steps("# -*- coding: klingon -*-\n").encode(), "unknown encoding: klingon", line=1),
        Hostile("cookie_on_line_two.py", _with_steps("#!/usr/bin/env python\n# vim: set fileencoding=nope :\n").encode(), "unknown encoding: nope", line=2),
        Hostile("latin1_cookie.py", latin1.encode("latin-1"), encoding="latin-1"),
        Hostile("cp1252_cookie.py", _with_steps("# coding: cp1252\nQUOTE = '\u201cquoted\u201d \u20ac'\n").encode("cp1252"), encoding="cp1252"),
        Hostile("wrong_cookie.py", _with_steps("# coding: ascii\nNAME = 'é'\n").encode(), "not valid ascii", line=2),
        Hostile("utf16_cookie.py", _with_steps("# coding: utf-16\n").encode(), "utf-16"),
        Hostile("bom.py", b"\xef\xbb\xbf" + _with_steps("NAME = 'é'\n").encode()),
        Hostile("bom_and_latin1_cookie.py", b"\xef\xbb\xbf" + _with_steps("# coding: latin-1\n").encode(), "byte order mark but declares another encoding", line=1),
        Hostile("bom_only.py", b"\xef\xbb\xbf", counts={}),
        Hostile("crlf.py", _with_steps("NAME = 'é'\n", newline="\r\n").encode()),
        Hostile("lone_cr.py", _with_steps(newline="\r").encode()),
        Hostile("mixed_line_endings.py", _with_steps().replace("\n\n", "\r\n\r").encode()),
        Hostile("form_feeds.py", _with_steps().replace("\n\n\n@step", "\n\x0c\n\x0c\n@step").replace("    return await", "\x0c    return await").encode()),
        Hostile("nfkc_identifiers.py", _with_steps().replace("await inner(x)", "await ｉｎｎｅｒ(x)").encode()),
        Hostile("line_separator_in_string.py", _with_steps("NOTE = 'a\u2028b\u0085c'\n").encode()),
        # --- syntax of other times and of no time ---
        Hostile("python2_print.py", b'print "hello"\n' + STEPS.encode(), "syntax error", line=1),
        Hostile("python2_exec.py", b'exec "x = 1"\n' + STEPS.encode(), "syntax error", line=1),
        Hostile("python2_backticks.py", b"x = `1`\n" + STEPS.encode(), "syntax error", line=1),
        Hostile("python2_octal.py", b"MODE = 0777\n" + STEPS.encode(), "syntax error", line=1),
        Hostile("python2_raise.py", STEPS.encode() + b'raise ValueError, "no"\n', "syntax error", line=12),
        Hostile("python2_ur_string.py", b"x = ur'abc'\n" + STEPS.encode(), "syntax error", line=1),
        Hostile("tabs_and_spaces.py", b"if True:\n\tif True:\n        pass\n" + STEPS.encode(), "inconsistent", line=3),
        Hostile("unindent_mismatch.py", b"if True:\n        x = 1\n    y = 2\n", "indentation error", line=3),
        Hostile("unterminated_string.py", STEPS.encode() + b'NAME = "abc\n', "unterminated string", line=12),
        Hostile("unterminated_triple_quote.py", STEPS.encode() + b'DOC = """abc\n\n', "unterminated triple-quoted string", line=12),
        Hostile("unterminated_fstring.py", STEPS.encode() + b'NAME = f"{1 + \n', "syntax error"),
        Hostile("unclosed_bracket.py", STEPS.encode() + b"VALUES = [1, 2,\n", "never closed", line=12),
        Hostile("stray_backslash.py", STEPS.encode() + b"x = 1 \\", "syntax error"),
        Hostile("python312.py", PY312.encode()),
        Hostile("python314.py", PY314.encode()),
        Hostile("stub.pyi", STUB.encode(), counts={}),
        # --- size and depth ---
        Hostile("empty.py", b"", counts={}),
        Hostile("only_whitespace.py", b"   \n\t\n\x0c\n", counts={}),
        Hostile("only_comment.py", b"# nothing here", counts={}),
        Hostile("deep_parentheses.py", STEPS.encode() + b"x = " + b"(" * 5000 + b"1" + b")" * 5000 + b"\n", "too many nested parentheses"),
        Hostile("deep_brackets.py", STEPS.encode() + b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n", "too many nested parentheses"),
        Hostile("deep_binop_100k.py", STEPS.encode() + b"x = " + b"1 + " * 100_000 + b"1\n", "too deep"),
        Hostile("deep_unary_100k.py", STEPS.encode() + b"x = " + b"-" * 100_000 + b"1\n", "too complex"),
        Hostile("deep_not_100k.py", STEPS.encode() + b"x = " + b"not " * 100_000 + b"1\n", "too"),
        Hostile("deep_lambda_100k.py", STEPS.encode() + b"x = " + b"lambda: " * 100_000 + b"1\n", "too"),
        Hostile("deep_blocks_101.py", STEPS.encode() + _nested_blocks(101), "too many levels of indentation"),
        Hostile("deep_binop_2000.py", _with_steps(suffix="X = " + "1 + " * 2000 + "1\n").encode()),
        Hostile("deep_call_chain_1000.py", _with_steps(suffix="X = f" + "()" * 1000 + "\n").encode()),
        Hostile("deep_union_1000.py", _with_steps(suffix="def g(x: " + " | ".join(["int"] * 1000) + ") -> None: ...\n").encode()),
        Hostile("deep_subscript_1000.py", _with_steps(suffix="X = a" + "[0]" * 1000 + "\n").encode()),
        Hostile("deep_blocks_99.py", _with_steps(suffix=_nested_blocks(99).decode()).encode()),
        Hostile("deep_defs_90.py", _with_steps(suffix=_nested_defs(90).decode()).encode()),
        Hostile("deep_brackets_199.py", _with_steps(suffix="X = " + "[" * 199 + "]" * 199 + "\n").encode()),
        Hostile("long_line_5mb.py", (long_string_line + STEPS).encode()),
        Hostile("long_call_line.py", _with_steps().replace("    return await inner(x)", long_call_line).encode()),
        Hostile("thousands_of_steps.py", _many_steps(2000), counts={"STP001": 1999}),
        Hostile("long_helper_chain.py", _helper_chain(3000), counts={"STP002": 1}),
        Hostile("many_tiny_statements.py", (STEPS + "x = 1; " * 20_000 + "\n").encode()),
    ]


def write_corpus(folder: Path) -> list[tuple[Path, Hostile]]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for case in corpus():
        path = folder / case.name
        path.write_bytes(case.data)
        written.append((path, case))
    return written
