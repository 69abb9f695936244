"""The gate in front of libcst: never "no" for a file that downlevel makes parse, "no" for plain broken files."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from steplint.source import downlevel
from steplint.source.newer_syntax import downlevel_may_help, first_marker

# Constructs downlevel rewrites, spelled in the ways Python allows (continuations, comments, odd spacing).
NEWER = [
    "type X = int\n",
    "type  X[T]=list[T]\n",
    "type \\\n  X = int\n",
    "def f[T](x: T) -> T:\n    return x\n",
    "def \\\n f [T = int](): pass\n",
    "class C[T]: pass\n",
    "class \\\n  C\\\n[T]: pass\n",
    "async def g[**P](): pass\n",
    "try:\n    pass\nexcept* ValueError:\n    pass\n",
    "try:\n    pass\nexcept \\\n *ValueError:\n    pass\n",
    "try:\n    pass\nexcept ValueError, TypeError:\n    pass\n",
    "try:\n    pass\nexcept (A, B), C:\n    pass\n",
    "try:\n    pass\nexcept f(\n    1\n), B:\n    pass\n",
    "try:\n    pass\nexcept lambda: 0, E:\n    pass\n",
    "try:\n    pass\nexcept E(':'), \\\n    F:\n    pass\n",
    "try:\n    pass\nexcept d['a:b'], E:  # a comment, with a comma\n    pass\n",
    'x = f"{d["k"]}"\n',
    "x = f'{'q'}'\n",
    'x = f"{"a"}" "b"\n',
    'x = "a" f"{d["k"]}"\n',
    'x = ("a"\n     f"{d["k"]}")\n',
    "x = f\"{'\\n'.join(y)}\"\n",
    'x = f"{y # a comment\n}"\n',
    'x = f"{\n  y}"\n',
    "x = f'''{y:{a:{b}}}'''\n",
    'x = rf"{d["k"]}"\n',
    'x = Rf"{d["k"]}" f"{1}"\n',
    'x = f"\\N{DASH} {y}"\n',
    'x = t"{y}"\n',
    "x = Rt'{y}'\n",
    "x = tr'{y}'\n",  # libcst does not read this spelling: no rewrite, but the gate still says maybe
    'x = f"{f"{f"{y}"}"}"\n',
]
# Text around them: nothing, a token error before or after, a grammar error before or after.
CONTEXTS = [
    ("", ""),
    ("MODE = 0777\n", ""),
    ("", "MODE = 0777\n"),
    ('print "x"\n', ""),
    ("", 'print "x"\n'),
    ("x = `1`\n", ""),
    ("x = 1€\n", ""),
    ("", "x = 1€\n"),
    ("s = 'unterminated\n", ""),
    ("y = (\n", ""),
]
# Broken files libcst cannot help: the gate says no, so the run does not import libcst.
PLAIN_BROKEN = [
    'print "hello"\n',
    "MODE = 0777\ntry:\n    pass\nexcept ValueError, e:\n    pass\n",
    "x = 1€\ndef f[T](): pass\n",
    "if True:\n\tif True:\n        pass\n",
    'x = f"{y}" "z"\nprint "no"\n',
    "x = f'{y!r:>10}'\nexec 'x'\n",
    "try:\n    pass\nexcept (A, B):\n    pass\nprint 1\n",
    'x = "def f"; print "x"\n',
    "x = ur'abc'\n",
]


def _rewrite(text: str) -> str | None:
    """What downlevel makes of ``text`` with no gate in front."""
    try:
        return downlevel._rewrite(text)
    except Exception:  # libcst's validation errors: no rewrite
        return None


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
        return True
    except SyntaxError:
        return False


def _rejection(text: str) -> SyntaxError | None:
    try:
        ast.parse(text)
    except SyntaxError as exc:
        return exc
    return None


def _assert_sound(text: str) -> None:
    error = _rejection(text)
    if error is None or error.lineno is None:
        return
    older = _rewrite(text)
    if older is not None and _parses(older):
        assert downlevel_may_help(text, error), text


@pytest.mark.parametrize("newer", NEWER)
@pytest.mark.parametrize("context", CONTEXTS, ids=range(len(CONTEXTS)))
def test_the_gate_never_refuses_a_file_downlevel_makes_parse(newer, context):
    before, after = context
    _assert_sound(before + newer + after)


def test_every_newer_construct_is_rewritten_and_gated():
    """The corpus above is not vacuous: on its own, every construct needs the rewrite and gets it."""
    for newer in NEWER:
        assert first_marker(newer) is not None, newer
        if _parses(newer) or newer.startswith("x = tr"):  # read natively (a newer Python) / not by libcst
            continue
        assert _rewrite(newer) is not None and _parses(_rewrite(newer)), newer


_FRAGMENTS = st.sampled_from(NEWER + [before for before, _ in CONTEXTS if before] + PLAIN_BROKEN + ["x = 1\n", "# except A, B: f'{\n", "s = 'def f[T]'\n"])


@settings(max_examples=150, deadline=None)
@given(st.lists(_FRAGMENTS, min_size=1, max_size=4))
def test_the_gate_is_sound_on_mixtures(fragments):
    _assert_sound("".join(fragments))


@pytest.mark.parametrize("text", PLAIN_BROKEN)
def test_plain_broken_files_are_not_sent_to_libcst(text):
    error = _rejection(text)
    assert error is not None
    assert not downlevel_may_help(text, error)
    older = _rewrite(text)
    assert older is None or not _parses(older)  # and libcst could not have helped


def test_a_token_error_after_the_first_marker_does_not_skip_the_rewrite():
    text = "type X = int\nMODE = 0777\n"
    assert downlevel_may_help(text, _rejection(text))
    text = "MODE = 0777\ntype X = int\n"
    assert not downlevel_may_help(text, _rejection(text))


def test_a_concatenation_wrong_in_every_python_keeps_its_error():
    """An f-string this Python reads, next to a string it rejects: no rewrite hides the bad escape."""
    text = 'x = "\\N{NO SUCH NAME}" f"{y}"\n'
    assert _rewrite(text) is None
    assert not downlevel_may_help(text, _rejection(text))


def test_parsing_python2_files_does_not_import_libcst():
    probe = textwrap.dedent(
        f"""
        import sys
        from steplint.source.reading import parse_text
        for text in {PLAIN_BROKEN!r}:
            assert parse_text(text).error is not None
        print("libcst" in sys.modules)
        """
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr
