"""An open document's summary, remade per edit only where the edit reaches, equals the one made from scratch."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from steplint.summaries.file_summary import summarize_source
from steplint.summaries.open_document import OpenDocument

ROOT = Path(__file__).resolve().parent.parent
# Real files of several shapes: the summary builder (long functions), the language server (classes, async),
# workflow fixtures (steps, decorators, lambdas, displays at module level).
REAL_FILES = [
    "lint/summaries/builder.py",
    "lint/frontends/lsp_server.py",
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "fixtures").rglob("*.py"))[:40],
]


def same_as_from_scratch(document: OpenDocument, text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    assert document.summary(data) == summarize_source(data, document.path)


def test_an_edit_inside_one_definition_parses_only_its_lines(tmp_path: Path) -> None:
    path = tmp_path / "mod.py"
    functions = [f"def f{i}(x):\n    y = [x, {i}]\n    return g(y, lambda: x)\n\n\n" for i in range(50)]
    text = "import os\n\n\n" + "".join(functions)
    document = OpenDocument(str(path))
    same_as_from_scratch(document, text)
    assert document.parsed_lines == text.count("\n")
    edited = text.replace("g(y, lambda: x)\n\n\ndef f21", "h(y, lambda: x)  # typed\n\n\ndef f21")
    same_as_from_scratch(document, edited)
    assert document.parsed_lines == 5  # f20's three lines and the two blank lines after them
    inserted = edited.replace("def f30(x):\n", "def f30(x):\n    # a new line\n")
    same_as_from_scratch(document, inserted)  # the lines below moved: f30 to the end is parsed again
    assert document.parsed_lines == inserted.count("\n") - inserted[: inserted.index("def f30")].count("\n")
    same_as_from_scratch(document, inserted)
    assert document.parsed_lines == 0


EDGE_CASES = [
    # (before, after): counters the groups after the edit depend on change, lines join, encodings differ...
    ("a = 1\nb = [2]\nf = lambda: 3\nc = {4: 5}\n", "a = [1]\nb = [2]\nf = lambda: 3\nc = {4: 5}\n"),
    ("a = 1\nf = lambda: 3\ng = lambda: 4\n", "h = lambda: 0\na = 1\nf = lambda: 3\ng = lambda: 4\n"),
    ("x = 1\ny = 2\nz = 3\n", "x = 1\ny = 2z = 3\n"),
    ("x = 1\ny = 2\nz = 3\n", "x = 1\ny = (2\nz = 3\n"),
    ("x = 1\ny = 2\nz = 3\n", "x = 1\n    y = 2\nz = 3\n"),
    ("def f():\n    return 1\n\nz = 3\n", "def f():\n    return 1\n    w = 2\nz = 3\n"),
    ("x = 1; y = 2\nz = 3\n", "x = 1; y = [2]\nz = 3\n"),
    ("@step\n# note\n@other\ndef f(): pass\nx = 1\n", "@step\n# changed\n@other\ndef f(): pass\nx = 1\n"),
    ("x = 1\ry = 2\rz = 3\r", "x = 1\ry = 22\rz = 3\r"),
    ("x = 1\ry = 2\rz = 3\r", "x = 1\r\ny = 2\rz = 3\r"),
    ("x = 1\r\ny = 2\r\nz = 3\r\n", "x = 1\r\ny = 2\nz = 3\r\n"),
    ("s = '''\nq = 1\n'''\nz = 3\n", "s = '''\nq = 1\n\nz = 3\n"),
    ("x = 'é'\ny = f(é)\nz = g(1)\n", "x = 'é'\ny = f(éé)\nz = g(1)\n"),
    ("x = 1\ny = 2\n", "\ufeffx = 1\ny = 2\n"),
    ("x = 1\ny = 2\n", "# -*- coding: latin-1 -*-\nx = 1\ny = 2\n"),
    ("type X = int\ny = 2\n", "type X = int\ny = [2]\n"),
    ("from . import a\nfrom .b import *\n", "from . import a\nfrom .c import *\n"),
    ("def g():\n    yield 1\n", "yield 2\ndef g():\n    yield 1\n"),
    ("x = 1\n", ""),
    ("", "# only a comment\n"),
    ("x = 1\ny = 2\n", "x = 1 \\\ny = 2\n"),
    ("x = 1\n# noqa: STP001\ny = 'a # noqa'\n", "x = 1\n# noqa: STP001\ny = 'b # noqa'\n"),
]


@pytest.mark.parametrize(("before", "after"), EDGE_CASES)
def test_edge_cases_equal_the_summary_from_scratch(tmp_path: Path, before: str, after: str) -> None:
    document = OpenDocument(str(tmp_path / "pkg_mod.py"))
    same_as_from_scratch(document, before)
    same_as_from_scratch(document, after)
    same_as_from_scratch(document, before)


def test_a_document_renamed_by_a_new_package_is_summarized_afresh(tmp_path: Path) -> None:
    folder = tmp_path / "pkg"
    folder.mkdir()
    path = folder / "mod.py"
    document = OpenDocument(str(path))
    text = "from . import sibling\nx = 1\n"
    same_as_from_scratch(document, text)
    (folder / "__init__.py").write_text("")
    from steplint.source.module_identity import forget_folders

    forget_folders()
    same_as_from_scratch(document, text + "y = 2\n")
    assert document.summary(text.encode()).module == "pkg.mod"


def _random_edit(text: str, draw: random.Random) -> str:
    """Edits a person makes: most keep the file valid, some break it for a while."""
    lines = text.splitlines(keepends=True) or [""]
    at = draw.randrange(len(lines))
    choice = draw.random()
    if choice < 0.25:
        line = lines[at].rstrip("\r\n")
        if line.strip() and not line.endswith("\\"):
            lines[at] = line + "  # typed" + lines[at][len(line):]
    elif choice < 0.45:
        lines.insert(at, "# a new line\n")
    elif choice < 0.55:
        lines.insert(at, draw.choice(["x = [1, 2]\n", "f = lambda: run()\n", "import os\n", "@step\ndef s(): pass\n"]))
    elif choice < 0.65:
        del lines[at]
    elif choice < 0.8:
        position = draw.randrange(len(text) + 1)
        return text[:position] + draw.choice(["(", ")", "'", "\n", "    ", ":", "\\", "é", "\r"]) + text[position:]
    else:
        position = draw.randrange(len(text) + 1)
        return text[:position] + text[position + draw.randrange(1, 30):]
    return "".join(lines)


@pytest.mark.parametrize("name", REAL_FILES)
def test_random_edits_of_real_files_equal_the_summary_from_scratch(name: str) -> None:
    text = (ROOT / name).read_text(encoding="utf-8")
    document = OpenDocument(str(ROOT / name))
    same_as_from_scratch(document, text)
    draw = random.Random(name)
    patched = 0
    for _ in range(12):
        edited = _random_edit(text, draw)
        same_as_from_scratch(document, edited)
        patched += 0 < document.parsed_lines < edited.count("\n")
        if _parses(edited):
            text = edited
        else:
            same_as_from_scratch(document, text)  # the mistake undone
    if text.count("\n") >= 40 and _parses(text):  # in a short file every edit reaches most of it
        assert patched >= 3  # the edits were not all summarized from scratch


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True
