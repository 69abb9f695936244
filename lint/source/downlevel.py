"""Rewrite syntax newer than the running interpreter, keeping every line and column.

Only used after ``ast.parse`` failed on text that shows a marker of newer
syntax. libcst (whose grammar does not depend on the running Python) parses
it; each newer construct is then overwritten *in the text* with an older one
of the same length, so that everything else keeps its exact position:

    type X[T] = list[T]         ->  X         = list[T]
    def f[T: int](x: T)         ->  def f        (x: T)      (classes too; PEP 695, 696)
    except* E                   ->  except  E
    except A, B:                ->  except A| B:              (3.14, PEP 758)
    f"{x!r:>{w}} {"q"}"         ->  (  x,  ,  w,   "q",)      (PEP 701 f-strings, t-strings)

An f-string becomes a tuple of its expressions, so their calls and names are
still seen; only f-strings this Python cannot parse are rewritten. Blanked
text that spans lines gets a ``\\`` before each line break.

libcst's native parser overflows its stack on input nested a few thousand
levels deep, which kills the process instead of raising. Where ``os.fork`` is
safe (Linux), the parse runs in a forked child: a crash, or a parse that takes
too long, only costs the rewrite (the file keeps its syntax error). Elsewhere
it runs on a thread with a deep stack (``steplint.core.deep_stack``), and only when a
count of the text's nesting tokens stays far below what that stack can hold.
"""

from __future__ import annotations

import faulthandler
import os
import re
import select
import signal
import sys
import time
from typing import Callable

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from steplint.source.newer_syntax import first_marker, parses_alone
from steplint.source.python_parse import LINE_BREAK
from steplint.core.deep_stack import call_deep

# Just enough of a tokenizer to measure nesting: strings and comments are skipped, brackets
# opened and closed, and operators, keywords and strings counted along the current path.
_NESTING = re.compile(
    r"""(?P<string>[rRbBuUfFtT]{0,2}(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"|'(?:\\.|[^\\'\r\n])*'|"(?:\\.|[^\\"\r\n])*"))
    |(?P<comment>\#[^\r\n]*)
    |(?P<open>[(\[{])
    |(?P<close>[)\]}])
    |(?P<newline>\r\n|\r|\n)
    |(?P<separator>[,;])
    |(?P<operator>[-+*/%@&|^~<>=.:!]+|\b(?:not|and|or|if|else|lambda|await|yield|in|is)\b)""",
    re.VERBOSE | re.DOTALL,
)
# CPython's tokenizer refuses more nested brackets than this, in every version: such a file is
# not newer syntax, it is no syntax at all.
MAX_BRACKETS = 200
# libcst's parse time grows faster than linearly with nesting (measured: 1600 nested brackets
# take 36 s, a chain of 1600 operators 2 s); beyond this depth the rewrite is not attempted.
MAX_NESTING = 1000
# A parse takes seconds of CPU (measured: 6.6 s for a 315 KB, 7,500-line file); far longer means libcst is
# stuck. The budget is the child's own CPU time, so a busy machine (other processes on its cores) does not
# turn a valid file into a syntax error; the wall-clock limit is only a backstop.
CHILD_TIMEOUT_SECONDS = 10.0
CHILD_SECONDS_PER_MEGABYTE = 40.0
WALL_CLOCK_FACTOR = 10
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") and "SC_CLK_TCK" in os.sysconf_names else 100
_FORK_IS_SAFE = sys.platform.startswith("linux") and hasattr(os, "fork")


def downlevel(text: str) -> str | None:
    """``text`` with its newer constructs rewritten, or None when there is nothing libcst can do."""
    if first_marker(text) is None or not shallow_enough(text):
        return None
    if _FORK_IS_SAFE:
        try:
            return in_child_process(_rewrite, text)
        except OSError:  # no process to be had: the guarded in-process parse below
            pass
    try:
        return call_deep(_rewrite, text)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # libcst raises several unrelated types, and pyo3 panics are BaseExceptions
        return None


def _rewrite(text: str) -> str | None:
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError:
        return None
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    edits = _Edits(text)
    wrapper.visit(_NewerSyntax(edits))
    return edits.apply() if edits.changed else None


def shallow_enough(text: str) -> bool:
    """Whether ``text`` nests little enough for libcst: an upper bound of its parse tree's depth."""
    counts = [0]  # operators and strings seen in the current segment of each open bracket
    along_path = 0  # their sum: how deep a chain of them can nest
    for match in _NESTING.finditer(text):
        kind = match.lastgroup
        if kind == "open":
            counts.append(0)
            if len(counts) > MAX_BRACKETS + 1:
                return False
        elif kind == "close":
            if len(counts) > 1:
                along_path -= counts.pop()
        elif kind == "separator" or (kind == "newline" and len(counts) == 1):
            along_path -= counts[-1]
            counts[-1] = 0
        elif kind in ("operator", "string"):
            counts[-1] += 1
            along_path += 1
            if along_path + len(counts) > MAX_NESTING:
                return False
    return True


class _Edits:
    """Same-length replacements of text ranges, by absolute offset."""

    def __init__(self, text: str):
        self.text = text
        self.line_starts = [0] + [match.end() for match in LINE_BREAK.finditer(text)]
        self.replacements: dict[int, str] = {}  # start offset -> replacement of that many characters
        self.changed = False
        self.failed = False

    def offset(self, position: cst.metadata.CodePosition) -> int:
        return self.line_starts[position.line - 1] + position.column

    def put(self, start: int, replacement: str | None) -> None:
        if replacement is None:
            self.failed = True
            return
        self.replacements[start] = replacement
        self.changed = True

    def blank(self, start: int, end: int) -> str | None:
        """Spaces for ``text[start:end]``, with line breaks kept behind a ``\\`` (None when impossible)."""
        chars = [" " if ch not in "\r\n" else ch for ch in self.text[start:end]]
        for match in LINE_BREAK.finditer(self.text, start, end):
            before = match.start() - start - 1
            if before < 0 or chars[before] in "\r\n":
                return None
            chars[before] = "\\"
        return "".join(chars)

    def apply(self) -> str | None:
        if self.failed:
            return None
        pieces: list[str] = []
        at = 0
        for start in sorted(self.replacements):
            if start < at:  # overlapping rewrites: give up rather than guess
                return None
            replacement = self.replacements[start]
            pieces.append(self.text[at:start])
            pieces.append(replacement)
            at = start + len(replacement)
        pieces.append(self.text[at:])
        return "".join(pieces)


class _NewerSyntax(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, edits: _Edits):
        super().__init__()
        self.edits = edits
        self.inside_rewritten: set[int] = set()  # strings that are parts of a unit being rewritten

    def span(self, node: cst.CSTNode) -> tuple[int, int]:
        where = self.get_metadata(PositionProvider, node)
        return self.edits.offset(where.start), self.edits.offset(where.end)

    def source(self, node: cst.CSTNode) -> str:
        start, end = self.span(node)
        return self.edits.text[start:end]

    # --- PEP 695 / 696 ---------------------------------------------------------

    def visit_TypeParameters(self, node: cst.TypeParameters) -> bool:
        start, end = self.span(node)
        self.edits.put(start, self.edits.blank(start, end))
        return False

    def visit_TypeAlias(self, node: cst.TypeAlias) -> bool:
        start, _ = self.span(node)
        name_start, name_end = self.span(node.name)
        end = self.span(node.type_parameters)[1] if node.type_parameters is not None else name_end
        blanked = self.edits.blank(start, end)
        name = node.name.value
        if blanked is None or any(ch in "\\\r\n" for ch in blanked[: len(name)]):
            self.edits.put(start, None)  # ``type \`` with the name on the next line: leave the file alone
        else:
            self.edits.put(start, name + blanked[len(name) :])
        node.value.visit(self)
        return False

    # --- except* and except A, B ------------------------------------------------------------

    def visit_ExceptStarHandler(self, node: cst.ExceptStarHandler) -> None:
        start, _ = self.span(node)
        star = start + len("except") + len(node.whitespace_after_except.value)
        if self.edits.text[star : star + 1] == "*":
            self.edits.put(star, " ")
        self._unparenthesized_types(node.type)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self._unparenthesized_types(node.type)

    def _unparenthesized_types(self, kind: cst.BaseExpression | None) -> None:
        if isinstance(kind, cst.Tuple) and not kind.lpar:
            for element in kind.elements:
                if isinstance(element.comma, cst.Comma):
                    comma, _ = self.span(element.comma)
                    self.edits.put(comma, "|")

    # --- PEP 701 f-strings, PEP 750 t-strings ----------------------------------------------------

    def visit_ConcatenatedString(self, node: cst.ConcatenatedString) -> bool:
        return self._string_unit(node)

    def visit_FormattedString(self, node: cst.FormattedString) -> bool:
        return self._string_unit(node)

    def visit_TemplatedString(self, node: cst.TemplatedString) -> bool:
        return self._string_unit(node)

    def _string_unit(self, node: cst.BaseExpression) -> bool:
        """Rewrite an f-string (or a concatenation holding one) as one tuple, when this Python cannot parse it."""
        if id(node) in self.inside_rewritten:
            return True
        parts = list(_string_parts(node))
        start, end = self.span(node)
        templated = any(isinstance(p, cst.TemplatedString) for p in parts)
        if not any(isinstance(p, (cst.FormattedString, cst.TemplatedString)) for p in parts):
            return False
        if not templated and all(parses_alone(self.source(p)) for p in parts if isinstance(p, cst.FormattedString)):
            # f-strings this Python reads: their expressions are fine too. Each is judged alone, as
            # ``steplint.source.newer_syntax`` does: a concatenated string that is wrong in every Python
            # keeps its error.
            return False
        kept = sorted(self.span(expression) for expression in _expressions(parts))
        chars = [" " if ch not in "\r\n" else ch for ch in self.edits.text[start:end]]
        for kept_start, kept_end in kept:
            chars[kept_start - start : kept_end - start] = self.edits.text[kept_start:kept_end]
            after = kept_end - start
            while chars[after] in "\r\n":
                after += 1
            chars[after] = ","
        chars[0], chars[-1] = "(", ")"
        # The expressions keep their text, and may hold strings that are units of their own:
        # only the text around them is replaced here.
        at = start
        for kept_start, kept_end in [*kept, (end, end)]:
            if kept_start > at:
                self.edits.put(at, "".join(chars[at - start : kept_start - start]))
            at = kept_end
        self.inside_rewritten.update(id(p) for p in parts)
        return True


def _string_parts(node: cst.BaseExpression):
    """The strings of an implicit concatenation, and the concatenations that hold them."""
    if isinstance(node, cst.ConcatenatedString):
        yield node
        yield from _string_parts(node.left)
        yield from _string_parts(node.right)
    else:
        yield node


def _expressions(parts: list[cst.BaseExpression]):
    """The expressions inside the braces of f-string and t-string parts, format specs included."""
    pending = [p.parts for p in parts if isinstance(p, (cst.FormattedString, cst.TemplatedString))]
    while pending:
        for piece in pending.pop():
            if isinstance(piece, (cst.FormattedStringExpression, cst.TemplatedStringExpression)):
                yield piece.expression
                if piece.format_spec:
                    pending.append(piece.format_spec)


# --- a parse that may crash, in a child process ---------------------------------------------------


def in_child_process(work: Callable[[str], str | None], text: str) -> str | None:
    """``work(text)`` in a forked child on a deep stack; None if the child fails, crashes or hangs."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 1
        try:
            os.close(read_end)
            faulthandler.disable()  # a crash here is expected and handled: no dump on the user's stderr
            result = call_deep(work, text)
            payload = b"\x00" if result is None else b"\x01" + result.encode("utf-8", "surrogatepass")
            view = memoryview(payload)
            while view:
                view = view[os.write(write_end, view) :]
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    chunks: list[bytes] = []
    budget = CHILD_TIMEOUT_SECONDS + CHILD_SECONDS_PER_MEGABYTE * len(text) / 1_000_000
    deadline = time.monotonic() + budget * WALL_CLOCK_FACTOR
    finished = False
    poller = select.poll()
    poller.register(read_end, select.POLLIN)
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            if not poller.poll(min(remaining, 0.5) * 1000):
                spent = _cpu_seconds(pid)
                if spent is not None and spent > budget:
                    break
                continue
            chunk = os.read(read_end, 1 << 20)
            if not chunk:
                finished = True
                break
            chunks.append(chunk)
    finally:
        os.close(read_end)
        if not finished:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    payload = b"".join(chunks)
    if not finished or status != 0 or not payload.startswith(b"\x01"):
        return None
    return payload[1:].decode("utf-8", "surrogatepass")


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time (user and system) process ``pid`` has used, from ``/proc``; None where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS  # utime and stime (fields 14 and 15)
    except (OSError, IndexError, ValueError):
        return None
