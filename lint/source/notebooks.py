"""Jupyter notebooks (``.ipynb``) as one Python module, the way ruff reads them.

A notebook's code cells run in order in one namespace, so their code is one
module: the Python cells concatenated, each followed by a boundary comment
line. Which cells count is ruff's choice: code cells whose ``vscode`` language
(if any) is Python, skipping a cell that starts with an automagic
(``pip install x``) or holds a cell magic (``%%bash``) other than the ones
whose body is Python (``%%time``, ``%%timeit``, ``%%capture``, ``%%debug``,
``%%prun``, ``%%pypy``, ``%%python``, ``%%python3``, ``%%ipytest``). A
notebook whose kernel is not Python has no code. Inside the cells, IPython's
escape commands are blanked as ruff's IPython lexer takes them: a logical line
starting with ``%``, ``!``, ``?``, ``/``, ``;`` or ``,`` (with its backslash
continuations), ``name = %magic`` / ``name = !command`` (the value becomes a
name nothing binds, so it is unknown), and ``obj?`` / ``obj??`` help lines.
Every other line keeps its text, so lines and columns map back to the cell
(``CellMap``). Top-level ``await`` needs nothing: ``ast`` parses it.

A cell that does not parse on its own is where the module stops: the code
after it is left out, so the syntax error (STP900) is the one Python gives
for that cell. ``with_cell_code`` writes a changed module back into the
notebook's JSON, touching only the sources of cells whose code changed.
"""

from __future__ import annotations

import ast
import difflib
import json
import re
import warnings
from dataclasses import dataclass
from typing import Iterable

NOTEBOOK_SUFFIX = ".ipynb"
CELL_BOUNDARY = "# %% (end of notebook cell)"  # a comment: nothing parses or reports it
UNKNOWN_VALUE = "__ipython_escape_value__"  # what `x = !ls` assigns: a name no code binds

# ruff's automagics (crates/ruff_notebook/src/cell.rs): a cell starting with one of them is a magic cell.
AUTOMAGICS = frozenset("""
alias alias_magic autoawait autocall automagic bookmark cd code_wrap colors conda config debug dhist dirs
doctest_mode edit env gui history killbgscripts load load_ext loadpy logoff logon logstart logstate logstop
lsmagic macro magic mamba matplotlib micromamba notebook page pastebin pdb pdef pdoc pfile pinfo pinfo2 pip
popd pprint precision prun psearch psource pushd pwd pycat pylab quickref recall rehashx reload_ext rerun
reset reset_selective run save sc set_env sx system tb time timeit unalias unload_ext who who_ls whos xdel xmode
""".split())
ASSIGNMENTS = frozenset({"=", "+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^="})
# Cell magics whose body is Python that runs in the notebook's namespace.
TRANSPARENT_CELL_MAGICS = frozenset({"capture", "debug", "ipytest", "prun", "pypy", "python", "python3", "time", "timeit"})
ESCAPE_STARTS = "%!?/;,"
_OPENERS, _CLOSERS = "([{", ")]}"
_QUOTE = re.compile(r"""[rRbBuUfF]{0,2}('''|\"\"\"|'|\")""")


class NotebookError(ValueError):
    """The file is not a notebook steplint can read; the message says why, for a person."""


def is_notebook(path: str) -> bool:
    return path.endswith(NOTEBOOK_SUFFIX)


@dataclass(frozen=True, slots=True)
class CellSpan:
    number: int  # 1-based index among all the notebook's cells, as ruff and Jupyter count them
    first_line: int  # 1-based line of the module where the cell's code starts
    line_count: int


@dataclass(frozen=True, slots=True)
class CellMap:
    """Where each Python cell's lines are in the module."""

    cells: tuple[CellSpan, ...]

    def place(self, line: int) -> tuple[int, int]:
        """(cell number, line in the cell) of the module's ``line``."""
        chosen = self.cells[0] if self.cells else CellSpan(1, 1, 0)
        for cell in self.cells:
            if cell.first_line > line:
                break
            chosen = cell
        return chosen.number, max(1, min(line - chosen.first_line + 1, max(chosen.line_count, 1)))


@dataclass(frozen=True, slots=True)
class NotebookCode:
    text: str  # the module
    cells: CellMap
    stopped_at: int | None = None  # the cell that does not parse, where the module stops


def notebook_code(data: bytes) -> NotebookCode:
    """The Python module of the notebook ``data``; raises NotebookError when it is not a readable nbformat 4 notebook."""
    notebook = _loaded(data)
    if not _is_python_notebook(notebook):
        return NotebookCode("", CellMap(()))
    return code_of_cells((number, _source_text(cell)) for number, cell in enumerate(notebook["cells"], start=1)
                         if _is_python_cell(cell, _source_text(cell)))


def code_of_cells(cells: Iterable[tuple[int, str]]) -> NotebookCode:
    """The module of the Python cells given as (number, source), in order (an editor's open notebook gives them)."""
    parts: list[str] = []
    spans: list[CellSpan] = []
    line = 1
    for number, source in cells:
        source = source.replace("\r\n", "\n").replace("\r", "\n")
        if is_magic_cell(source):
            continue
        lines = python_lines(source)
        spans.append(CellSpan(number, line, len(lines)))
        parts.extend(lines)
        parts.append(CELL_BOUNDARY)
        line += len(lines) + 1
        if not _parses("\n".join(lines)):
            return NotebookCode("\n".join(parts) + "\n", CellMap(tuple(spans)), number)
    return NotebookCode("\n".join(parts) + "\n" if parts else "", CellMap(tuple(spans)))


def cell_map(data: bytes) -> CellMap | None:
    """The notebook's ``CellMap``; None when it cannot be read."""
    try:
        return notebook_code(data).cells
    except NotebookError:
        return None


def cell_source(data: bytes, number: int) -> str | None:
    """The text of cell ``number`` (1-based), as the notebook holds it."""
    try:
        cells = _loaded(data)["cells"]
    except NotebookError:
        return None
    return _source_text(cells[number - 1]) if 1 <= number <= len(cells) else None


def with_cell_code(data: bytes, text: str) -> bytes:
    """The notebook ``data`` with its code replaced by the module ``text`` (which ``notebook_code`` made and a fix
    changed): each changed cell gets its new lines, magics kept where they were; the rest of the JSON (outputs,
    metadata, key order, indentation, the final newline) is written back as it was read."""
    notebook = _loaded(data)
    before = notebook_code(data)
    new_cells = _cell_parts(text)
    if len(new_cells) != len(before.cells.cells) + 1 or new_cells[-1] not in ([], [""]):
        raise NotebookError("the fixed code no longer has one part per cell")
    for span, new_lines in zip(before.cells.cells, new_cells):
        cell = notebook["cells"][span.number - 1]
        old_source = _source_text(cell)
        lines = _restore_escapes(python_lines(old_source), old_source.split("\n"), new_lines)
        new_source = "\n".join(lines) + ("\n" if old_source.endswith("\n") and lines else "")
        if new_source != old_source:
            cell["source"] = _as_line_list(new_source) if isinstance(cell.get("source"), list) else new_source
    return _dumped(notebook, data)


def _cell_parts(text: str) -> list[list[str]]:
    """The module's lines between boundary lines (the last part: what follows the last boundary)."""
    parts: list[list[str]] = [[]]
    for line in text.split("\n"):
        if line == CELL_BOUNDARY:
            parts.append([])
        else:
            parts[-1].append(line)
    return parts


def _as_line_list(source: str) -> list[str]:
    """nbformat's list form: every line with its newline, the last one as it ends."""
    lines = [line + "\n" for line in source.split("\n")]
    lines[-1] = lines[-1][:-1]
    return [line for line in lines if line]


def _restore_escapes(python: list[str], original: list[str], fixed: list[str]) -> list[str]:
    """``fixed`` with each line that a fix left as it was taken from ``original`` (the magics come back)."""
    out: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, python, fixed, autojunk=False).get_opcodes():
        out.extend(original[i1:i2] if tag == "equal" else fixed[j1:j2])
    return out


def _dumped(notebook: dict, data: bytes) -> bytes:
    text = data.decode("utf-8-sig")
    indent_match = re.search(r"\{\r?\n([ \t]+)\"", text)
    indent = indent_match.group(1) if indent_match else None
    newline = "\r\n" if "\r\n" in text else "\n"
    escaped = text.isascii() and "\\u" in text
    out = json.dumps(notebook, indent=indent, ensure_ascii=escaped, separators=(",", ": ") if indent else None)
    if newline != "\n":
        out = out.replace("\n", newline)
    if text.endswith(("\n", "\r")):
        out += newline
    return out.encode("utf-8")


def _loaded(data: bytes) -> dict:
    try:
        notebook = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise NotebookError(f"not a notebook: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise NotebookError(f"not a notebook: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise NotebookError("not a notebook: JSON nested too deeply") from None
    if not isinstance(notebook, dict):
        raise NotebookError("not a notebook: the JSON is not an object")
    if notebook.get("nbformat") != 4:
        found = notebook.get("nbformat")
        raise NotebookError(f"not an nbformat 4 notebook (nbformat: {json.dumps(found)}); "
                            "convert it with 'jupyter nbconvert --to notebook'")
    cells = notebook.get("cells")
    if not isinstance(cells, list) or not all(isinstance(cell, dict) for cell in cells):
        raise NotebookError("not a notebook: 'cells' is not a list of cells")
    for number, cell in enumerate(cells, start=1):
        source = cell.get("source", "")
        if not (isinstance(source, str) or isinstance(source, list) and all(isinstance(part, str) for part in source)):
            raise NotebookError(f"not a notebook: the source of cell {number} is neither text nor a list of lines")
    return notebook


def _is_python_notebook(notebook: dict) -> bool:
    metadata = notebook.get("metadata")
    if not isinstance(metadata, dict):
        return True
    if isinstance(metadata.get("language_info"), dict):
        return metadata["language_info"].get("name") == "python"
    if isinstance(metadata.get("kernelspec"), dict):
        return metadata["kernelspec"].get("language") == "python"
    return True


def _source_text(cell: dict) -> str:
    source = cell.get("source", "")
    text = source if isinstance(source, str) else "".join(source)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _is_python_cell(cell: dict, source: str) -> bool:
    if cell.get("cell_type") != "code":
        return False
    metadata = cell.get("metadata")
    vscode = metadata.get("vscode") if isinstance(metadata, dict) else None
    if isinstance(vscode, dict) and vscode.get("languageId", "python") != "python":
        return False
    return not is_magic_cell(source)


def is_magic_cell(source: str) -> bool:
    """A cell ruff leaves out: it starts with an automagic, or holds a cell magic whose body is not Python."""
    lines = source.split("\n")
    tokens = lines[0].split() if lines else []
    if tokens and tokens[0] in AUTOMAGICS and not (len(tokens) > 1 and tokens[1] in ASSIGNMENTS):
        return True
    for line in lines:
        first = line.split()[0] if line.split() else ""
        if first.startswith("%%") and first[2:] not in TRANSPARENT_CELL_MAGICS:
            return True
    return False


def _parses(code: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def python_lines(source: str) -> list[str]:
    """The cell's lines with IPython's escape commands blanked (same number of lines; other lines unchanged)."""
    lines = source.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the cell's final newline: the boundary line follows anyway
    out: list[str] = []
    scanner = _Scanner()
    in_escape = False
    for line in lines:
        if in_escape:  # a backslash continuation of an escape command
            out.append("")
            in_escape = line.endswith("\\")
            continue
        if scanner.at_logical_start():
            stripped = line.lstrip()
            indent = line[: len(line) - len(stripped)]
            if stripped[:1] and stripped[0] in ESCAPE_STARTS:
                out.append(indent + "pass")
                in_escape = line.endswith("\\")
                continue
            if _help_line(stripped):
                out.append(indent + "pass")
                continue
            assigned = _escape_value_at(stripped)
            if assigned is not None:
                out.append(indent + stripped[:assigned] + UNKNOWN_VALUE)
                in_escape = line.endswith("\\")
                continue
        scanner.feed(line)
        out.append(line)
    return out


_HELP = re.compile(r"[A-Za-z_][\w.]*(\[[^\]]*\]|\(\))*\s*\?\??\s*$")


def _help_line(stripped: str) -> bool:
    """``obj?`` / ``obj.attr??``: IPython's help, which is never Python."""
    return _HELP.match(stripped) is not None


def _escape_value_at(stripped: str) -> int | None:
    """Where ``%magic`` / ``!command`` starts after a top-level ``=`` (``files = !ls``), else None."""
    scanner = _Scanner()
    index = 0
    while index < len(stripped):
        char = stripped[index]
        if scanner.quote is None and scanner.depth == 0:
            if char == "#":
                return None
            if char == "=" and stripped[index - 1:index] not in tuple("=!<>:+-*/%&|^@") and stripped[index + 1:index + 2] != "=":
                rest = stripped[index + 1:]
                value = index + 1 + len(rest) - len(rest.lstrip())
                return value if stripped[value:value + 1] in ("%", "!") and stripped[value:value + 1] else None
        index = scanner.step(stripped, index)
    return None


class _Scanner:
    """Enough of Python's tokenizer to know where a logical line starts: brackets, strings, comments, backslashes."""

    def __init__(self) -> None:
        self.depth = 0
        self.quote: str | None = None  # the open string's quote
        self.continued = False

    def at_logical_start(self) -> bool:
        return self.depth == 0 and self.quote is None and not self.continued

    def feed(self, line: str) -> None:
        index = 0
        self.continued = False
        while index < len(line):
            index = self.step(line, index)
            if index < 0:  # a comment: the rest of the line
                break
        if self.quote is not None and len(self.quote) == 1:
            self.quote = None if not line.endswith("\\") else self.quote  # an unclosed one-line string ends here
        elif self.quote is None and line.endswith("\\") and index >= 0:
            self.continued = True

    def step(self, line: str, index: int) -> int:
        """Advance over one character (or string start/end); -1 when a comment takes the rest of the line."""
        char = line[index]
        if self.quote is not None:
            if char == "\\":
                return index + 2
            if line.startswith(self.quote, index):
                end = index + len(self.quote)
                self.quote = None
                return end
            return index + 1
        if char == "#":
            return -1
        match = _QUOTE.match(line, index) if char.isalpha() or char in "'\"" else None
        if match is not None and (char in "'\"" or index == 0 or not (line[index - 1].isalnum() or line[index - 1] == "_")):
            self.quote = match.group(1)
            return match.end()
        if char in _OPENERS:
            self.depth += 1
        elif char in _CLOSERS:
            self.depth = max(0, self.depth - 1)
        return index + 1
