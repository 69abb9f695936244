"""Turn a file into a syntax tree, or into the reason it has none.

Reading is bounded and never blocks: only regular files are read (a FIFO or a
device named ``x.py`` is reported, not opened for reading), and at most
``max_size`` bytes of them. The tree is Python's own ``ast``: it carries
positions for free, where libcst's PositionProvider costs twice the parse
(measured: 9.6 s against 4.4 s for the 84 files of agent-framework-core).
libcst still decides validity when the running interpreter's grammar is older
than the file's (``type X = ...`` on 3.11): ``steplint.source.downlevel`` then
rewrites the few newer constructs into older equivalents of the same length,
keeping every line and column where it was. ``steplint.source.newer_syntax`` tells
from the text whether that can help before libcst is imported.
"""

from __future__ import annotations

import ast
import codecs
import errno
import io
import os
import re
import stat
import tokenize
from bisect import bisect_left
from dataclasses import dataclass, field

from steplint.config.settings import DEFAULT_MAX_FILE_SIZE
from steplint.core.summary import ParseError
from steplint.source.notebooks import NotebookError, is_notebook, notebook_code
from steplint.source.python_parse import LINE_BREAK, quiet_parse

_NON_ASCII = re.compile(r"[^\x00-\x7f]")
NOTEBOOK_CODE = "<notebook code>"  # the name a notebook's code is parsed under



class UnreadableSource(Exception):
    """A file whose bytes cannot be had; the message says why, for a person."""


@dataclass
class ParsedSource:
    text: str
    tree: ast.Module | None
    error: ParseError | None
    line_count: int
    _lines: list[str] | None = field(default=None, repr=False)
    _byte_maps: dict[int, tuple[list[int], list[int]]] = field(default_factory=dict, repr=False)

    def lines(self) -> list[str]:
        """The text's lines, as Python's tokenizer breaks them (``ast``'s line n is item n - 1)."""
        if self._lines is None:
            self._lines = LINE_BREAK.split(self.text)
        return self._lines

    def line_text(self, line: int) -> str:
        lines = self.lines()
        if 1 <= line <= len(lines):
            return lines[line - 1]
        return ""

    def column(self, line: int, byte_offset: int) -> int:
        """The character column of ``ast``'s UTF-8 byte offset on ``line``."""
        if self.text.isascii():
            return byte_offset
        text = self.line_text(line)
        if text.isascii():
            return byte_offset
        starts, extra = self._byte_map(line, text)
        before = bisect_left(starts, byte_offset)  # non-ASCII characters that start before the offset
        return byte_offset - (extra[before - 1] if before else 0)

    def _byte_map(self, line: int, text: str) -> tuple[list[int], list[int]]:
        """Where each non-ASCII character of the line starts in UTF-8, and the extra bytes up to it.

        Built once per line, so a 5 MB line with thousands of calls costs one
        pass, not one encode per call.
        """
        found = self._byte_maps.get(line)
        if found is None:
            starts: list[int] = []
            extra: list[int] = []
            grown = 0
            for match in _NON_ASCII.finditer(text):
                starts.append(match.start() + grown)
                grown += len(match.group().encode("utf-8", "surrogatepass")) - 1
                extra.append(grown)
            found = self._byte_maps[line] = (starts, extra)
        return found


def read_source(path: str, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> bytes:
    """The bytes of the regular file ``path``, at most ``max_size`` of them (None or 0: no limit).

    A notebook's bytes are its Python code (``steplint.source.notebooks``), UTF-8: the limit applies to
    that code, since outputs (images...) make notebooks large. Never blocks: FIFOs, sockets and devices
    are refused before they are opened for reading. Raises ``UnreadableSource`` with the reason.
    """
    if is_notebook(path):
        try:
            code = notebook_code(read_file(path, None)).text.encode("utf-8", "surrogatepass")
        except NotebookError as exc:
            raise UnreadableSource(str(exc)) from None
        if max_size and len(code) > max_size:
            raise UnreadableSource(_too_large(len(code), max_size))
        return code
    return read_file(path, max_size)


def read_file(path: str, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> bytes:
    """``read_source``'s bytes as the file holds them (a notebook's JSON)."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise UnreadableSource(_open_failure(path, exc)) from None
    _require_regular(info, path, max_size)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise UnreadableSource(_open_failure(path, exc)) from None
    try:
        _require_regular(os.fstat(fd), path, max_size)  # it may have been replaced since the stat
        budget = max_size + 1 if max_size else None  # one byte more tells a file that grew past the limit
        chunks: list[bytes] = []
        size = 0
        while budget is None or size < budget:
            chunk = os.read(fd, 1 << 20 if budget is None else min(1 << 20, budget - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise UnreadableSource(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if max_size and size > max_size:
        raise UnreadableSource(_too_large(size, max_size, grew=True))
    return b"".join(chunks)


def readable_bytes(path: str, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> bytes | None:
    """``read_source``, or None when the file cannot be had.

    For a file that was already linted, whose text is shown or fixed: had it
    been unreadable, that was reported then.
    """
    try:
        return read_source(path, max_size)
    except UnreadableSource:
        return None


def readable_text(path: str, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> str | None:
    """``readable_bytes`` decoded as Python does, or None when the file cannot be read or decoded."""
    data = readable_bytes(path, max_size)
    if data is None:
        return None
    try:
        return decode_source(data)
    except DecodeFailure:
        return None


def _require_regular(info: os.stat_result, path: str, max_size: int | None) -> None:
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise UnreadableSource("is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise UnreadableSource(f"not a regular file but {_kind_of(mode)}; steplint reads only regular files")
    if max_size and info.st_size > max_size:
        raise UnreadableSource(_too_large(info.st_size, max_size))


def _kind_of(mode: int) -> str:
    for test, kind in (
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return kind
    return "a special file"


def _too_large(size: int, limit: int, grew: bool = False) -> str:
    amount = f"more than {limit} bytes" if grew else f"{size} bytes"
    return f"file too large ({amount} > max-file-size {limit} bytes); raise max-file-size to analyze it"


def _open_failure(path: str, exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "symbolic link loop: the link never reaches a file"
    if exc.errno == errno.ENOENT:
        if os.path.islink(path):
            return f"dangling symbolic link to {os.readlink(path)!r}: its target does not exist"
        return "No such file or directory (it never existed, or it was deleted or moved while steplint ran)"
    if exc.errno == errno.EISDIR:
        return "is a directory, not a file"
    return f"cannot read: {exc.strerror or exc}"


class DecodeFailure(ValueError):
    """Bytes that do not decode as the file declares; ``line`` is where (1-based)."""

    def __init__(self, message: str, line: int = 1):
        super().__init__(message)
        self.line = line


def decode_source(data: bytes) -> str:
    """Decode as Python does: BOM, then a PEP 263 cookie, else UTF-8.

    Raises ``DecodeFailure`` (a ``ValueError``) with a reason a person can act on.
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        line = _declaration_line(data)
        if b"coding" not in data.split(b"\n", line)[line - 1]:
            raise DecodeFailure(f"line {line} is not valid utf-8, and no other encoding is declared", line) from None
        if data.startswith(codecs.BOM_UTF8):
            raise DecodeFailure("the file starts with a UTF-8 byte order mark but declares another encoding", line) from None
        raise DecodeFailure(f"cannot read the encoding declaration: {exc.msg}", line) from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        byte = data[exc.start : exc.start + 1]
        raise DecodeFailure(f"line {line} is not valid {encoding}: {exc.reason} (byte {byte!r})", line) from None
    except LookupError as exc:
        raise DecodeFailure(f"cannot decode as {encoding}: {exc}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def decode_keeping_encoding(data: bytes) -> tuple[str, str]:
    """``decode_source``, and the encoding the bytes declare (to write a fixed text back the same way)."""
    text = decode_source(data)
    return text, tokenize.detect_encoding(io.BytesIO(data).readline)[0]


def _declaration_line(data: bytes) -> int:
    """The line an encoding problem is on: the first, unless it is fine and a second exists."""
    first, newline, _ = data.partition(b"\n")
    if not newline or b"coding" in first:
        return 1
    try:
        first.decode("utf-8")
    except UnicodeDecodeError:
        return 1
    return 2


def count_lines(text: str) -> int:
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    return breaks + (1 if text and text[-1] not in "\r\n" else 0)


def parse_text(text: str, filename: str = "<unknown>") -> ParsedSource:
    if text.startswith("\ufeff"):  # a buffer from an editor may still carry its BOM
        text = text[1:]
    line_count = count_lines(text)
    if is_notebook(filename):
        # Not the file's name: given a file that exists, CPython reads the error's line from it (the JSON) and
        # reckons the column on that line.
        filename = NOTEBOOK_CODE
    try:
        tree = quiet_parse(text, filename)
        return ParsedSource(text, tree, None, line_count)
    except SyntaxError as exc:
        if "\0" in text:  # Python says only "cannot contain null bytes", without a line
            return ParsedSource(text, None, _nul_error(text), line_count)
        error = _syntax_error(exc)
        rejected = exc
        if exc.lineno is None:
            return ParsedSource(text, None, error, line_count)
    except ValueError:  # NUL bytes on older Pythons
        return ParsedSource(text, None, _nul_error(text), line_count)
    except (RecursionError, MemoryError) as exc:
        return ParsedSource(text, None, _too_complex(exc), line_count)
    # Imported here, not at the top: most runs never meet newer syntax, and downlevel imports libcst.
    from steplint.source.newer_syntax import downlevel_may_help

    if not downlevel_may_help(text, rejected):  # spares importing libcst, a third of a second
        return ParsedSource(text, None, error, line_count)
    from steplint.source.downlevel import downlevel

    older = downlevel(text)
    if older is None:
        return ParsedSource(text, None, error, line_count)
    try:
        return ParsedSource(text, quiet_parse(older, filename), None, line_count)
    except (SyntaxError, ValueError):
        return ParsedSource(text, None, error, line_count)
    except (RecursionError, MemoryError) as exc:
        return ParsedSource(text, None, _too_complex(exc), line_count)


def parse_bytes(data: bytes, filename: str = "<unknown>") -> ParsedSource:
    try:
        text = decode_source(data)
    except DecodeFailure as exc:
        lenient = _lenient_decode(data)
        if lenient is None:
            return ParsedSource("", None, ParseError(str(exc), exc.line, 0), 0)
        text = lenient
    return parse_text(text, filename)


_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*(?P<name>[-\w.]+)", re.MULTILINE)


def declares_encoding(data: bytes) -> bool:
    """Whether a file's first two lines hold a PEP 263 encoding declaration."""
    second_line_end = data.find(b"\n", data.find(b"\n") + 1)
    return _COOKIE.search(data if second_line_end < 0 else data[:second_line_end]) is not None


def _lenient_decode(data: bytes) -> str | None:
    """Text for bytes that do not decode but that CPython compiles all the same, else None.

    ``compile()`` on bytes, which is how the import system compiles a module,
    tolerates undecodable bytes in comments: such a module imports, so it is
    analyzed, with U+FFFD for the bytes.
    """
    try:
        quiet_parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    cookie = _COOKIE.search(b"\n".join(data.split(b"\n", 2)[:2]))
    try:
        text = data.decode(cookie.group("name").decode("ascii") if cookie else "utf-8", errors="replace")
    except LookupError:
        text = data.decode("utf-8", errors="replace")
    return text[1:] if text.startswith("\ufeff") else text


def _nul_error(text: str) -> ParseError:
    at = text.find("\0")
    before = text[:at]
    line = before.count("\n") + before.count("\r") - before.count("\r\n") + 1
    column = at - max(before.rfind("\n"), before.rfind("\r")) - 1
    return ParseError(f"syntax error: a NUL byte (\\0) at line {line}; Python source cannot contain NUL bytes", line, column)


def _syntax_error(exc: SyntaxError) -> ParseError:
    kind = type(exc).__name__
    label = {"IndentationError": "indentation error", "TabError": "inconsistent tabs and spaces"}.get(
        kind, "syntax error"
    )
    line = exc.lineno or 1
    col = max((exc.offset or 1) - 1, 0)
    if exc.filename == NOTEBOOK_CODE:  # the finding says the cell, line and column
        return ParseError(f"{label}: {exc.msg}", line, col)
    return ParseError(f"{label}: {exc.msg} (line {line}, column {col + 1})", line, col)


def _too_complex(exc: BaseException) -> ParseError:
    if isinstance(exc, RecursionError):
        reason = "nesting too deep to parse"
    else:  # CPython's parser raises a bare MemoryError when its own stack overflows
        reason = "too complex to parse (Python's parser ran out of room: nesting too deep, or too little memory)"
    return ParseError(f"cannot analyze: {reason}", 1, 0)
