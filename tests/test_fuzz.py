"""Fuzzing: generated programs and mutated fixtures never make the linter raise.

Whatever the bytes, ``lint_source`` returns findings; a file CPython parses
never gets STP900, and a file nothing can parse always does (unless a
suppression comment in it silences STP900). Every position is inside the file.

CI runs a few hundred examples, derandomized (the same ones every run, so CI
cannot flake). ``STEPLINT_FUZZ_EXAMPLES=5000 pytest tests/test_fuzz.py -s``
runs that many examples per test, with fresh randomness; each test prints how
many examples it ran.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import hypothesmith
import pytest
from expectations import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hostile_corpus import STEPS

from steplint.config.settings import Settings
from steplint.core.diagnostics import Diagnostic
from steplint.api import lint_source

# hypothesmith compiles what it generates, and CPython warns about some of it
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning", "ignore::DeprecationWarning")

REQUESTED = int(os.environ.get("STEPLINT_FUZZ_EXAMPLES", "0") or 0)
SETTINGS = Settings(project_root=FIXTURES, extend_select=("ALL",))
FIXTURE_FILES = sorted(p for p in FIXTURES.rglob("*.py") if not p.name.endswith(".fixed.py"))
FIXTURE_BYTES = {p: p.read_bytes() for p in FIXTURE_FILES}


def fuzz(default_examples: int):
    return settings(
        max_examples=REQUESTED or default_examples,
        derandomize=not REQUESTED,
        database=None,  # nothing written into the checkout
        deadline=None,  # a rewrite of newer syntax forks a process: slow, and fine
        suppress_health_check=list(HealthCheck),
        print_blob=True,
    )


def parses(data: bytes) -> bool:
    """What CPython says: bytes it decodes and parses."""
    try:
        compile(data, "<fuzz>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
        return True
    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
        return False


def survives(data: bytes, path: str) -> list[Diagnostic]:
    result = lint_source(data, path, SETTINGS)  # must not raise
    summary = result.summaries[path]
    diagnostics = result.diagnostics
    codes = [d.code for d in diagnostics]
    lines = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n") + 1  # whatever the encoding
    for d in diagnostics:
        assert 1 <= d.line <= d.end_line <= lines, d
        assert d.column >= 1 and d.end_column >= 1, d
        assert (d.end_line, d.end_column) >= (d.line, d.column), d
        assert d.message and d.code.startswith("STP"), d
    if parses(data):
        assert summary.error is None and "STP900" not in codes, summary.error
    elif summary.error is not None:  # not even newer syntax: the file reports why
        silenced = b"noqa" in data.lower() or b"steplint" in data
        assert codes.count("STP900") == 1 or silenced, diagnostics
    return diagnostics


class Count:
    def __init__(self, label: str):
        self.label = label
        self.runs = 0

    def __call__(self) -> None:
        self.runs += 1

    def report(self, expected: int) -> None:
        print(f"\nfuzz: {self.runs} {self.label}")
        assert self.runs >= min(expected, REQUESTED or expected) // 2, "hypothesis ran far fewer examples than asked"


def test_generated_programs():
    count = Count("programs from hypothesmith's grammar")

    @fuzz(200)
    @given(hypothesmith.from_grammar())
    def check(source: str) -> None:
        count()
        survives(source.encode("utf-8", "surrogatepass"), "generated.py")

    check()
    count.report(200)


def test_generated_code_among_steps():
    """Generated statements inside a module with steps, so the rules see them around step calls."""
    count = Count("generated programs spliced between steps")

    @fuzz(100)
    @given(hypothesmith.from_grammar(), st.booleans())
    def check(source: str, before: bool) -> None:
        count()
        text = source + "\n" + STEPS if before else STEPS + "\n" + source
        survives(text.encode("utf-8", "surrogatepass"), "spliced.py")

    check()
    count.report(100)


@st.composite
def mutated_fixture(draw: st.DrawFn) -> tuple[Path, bytes]:
    """A fixture with up to four mutations: truncation, byte flips, inserted bytes, lines deleted, doubled or swapped."""
    path = draw(st.sampled_from(FIXTURE_FILES))
    data = bytearray(FIXTURE_BYTES[path])
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["truncate", "flip", "insert", "delete line", "double line", "swap lines"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "truncate":
            del data[at:]
        elif kind == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            awkward = st.sampled_from([b"(", b"\x00", b"\t", b'"""', b"\xff", b"\r", b"\\"])
            data[at:at] = draw(st.binary(min_size=1, max_size=8) | awkward)
        else:
            lines = bytes(data).splitlines(keepends=True)
            if not lines:
                continue
            index = draw(st.integers(0, len(lines) - 1))
            if kind == "delete line":
                del lines[index]
            elif kind == "double line":
                lines.insert(index, lines[index])
            else:
                other = draw(st.integers(0, len(lines) - 1))
                lines[index], lines[other] = lines[other], lines[index]
            data = bytearray(b"".join(lines))
    return path, bytes(data)


def test_mutated_fixtures():
    """Each mutant is linted as the fixture it came from: its siblings on disk still load as imports."""
    count = Count("mutated fixtures")

    @fuzz(300)
    @given(mutated_fixture())
    def check(mutant: tuple[Path, bytes]) -> None:
        count()
        path, data = mutant
        survives(data, str(path))

    check()
    count.report(300)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_truncation_of_a_small_fixture_survives(path):
    """Not random: the fixture cut after every line, the way an editor sends a buffer being typed."""
    data = FIXTURE_BYTES[path]
    lines = data.splitlines(keepends=True)
    for end in range(len(lines) + 1):
        survives(b"".join(lines[:end]), str(path))
