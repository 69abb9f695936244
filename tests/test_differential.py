"""The differential tester in CI: generated programs run on the real agent-framework-core, traced,
and compared with steplint's STP001/STP002/STP020 both ways (tests/differential/).

Derandomized: seeds 0..PROGRAMS-1, every run the same programs, on the installed release; the first
OLDEST_SAMPLE of them also on 1.18.0 (installed alone under .venvs/), linted for 1.18. A disagreement not in
differential/known_gaps.py fails, and so does a listed one that no longer shows (remove its row).
``STEPLINT_DIFFERENTIAL_SHRINK=1`` shrinks the first new disagreement and writes it as a fixture
folder (under ``$TMPDIR/steplint-differential``); ``python bench/differential.py`` is the long
mode (thousands of programs, counts per family).
"""

from __future__ import annotations

import ast
import os
import tempfile
from pathlib import Path

import pytest

from differential.generator import generate
from differential.known_gaps import DOC_SANCTIONED, KNOWN_GAPS
from differential.oracle import Disagreement, Toolchain, check_batch
from differential.shapes import SHAPES
from differential.shrink import Version, apply, deletions, shrink, write_fixture

PROGRAMS = int(os.environ.get("STEPLINT_DIFFERENTIAL_PROGRAMS", "300"))
# The sample run on the oldest supported release too (call-order keys, its own refusal of concurrent calls),
# linted for that release.
OLDEST_RELEASE, OLDEST_SAMPLE = "1.18.0", int(os.environ.get("STEPLINT_DIFFERENTIAL_OLDEST_PROGRAMS", "100"))
SHRINK_OUT = Path(tempfile.gettempdir()) / "steplint-differential"


def key(disagreement: Disagreement) -> tuple[str, str, str]:
    return (disagreement.kind, disagreement.rule, disagreement.shape)


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory):
    programs = {program.name: program for program in (generate(seed) for seed in range(PROGRAMS))}
    disagreements, broken = check_batch(tmp_path_factory.mktemp("differential"), list(programs.values()), Toolchain())
    return programs, disagreements, broken


@pytest.fixture(scope="module")
def oldest_batch(tmp_path_factory: pytest.TempPathFactory):
    tools = Toolchain.on_release(OLDEST_RELEASE)
    programs = [generate(seed) for seed in range(OLDEST_SAMPLE)]
    return check_batch(tmp_path_factory.mktemp("differential-oldest"), programs, tools)


@pytest.mark.runtime
def test_every_generated_program_runs_on_maf(batch) -> None:
    _, _, broken = batch
    assert not broken, "\n\n".join(f"{name}:\n{error}" for name, error in sorted(broken.items())[:3])


@pytest.mark.runtime
def test_no_disagreement_outside_the_known_gaps(batch) -> None:
    programs, disagreements, _ = batch
    new = [d for d in disagreements if key(d) not in KNOWN_GAPS and key(d) not in DOC_SANCTIONED]
    if new and os.environ.get("STEPLINT_DIFFERENTIAL_SHRINK"):
        small, trace = shrink(programs[new[0].program], new[0], Toolchain())
        print(f"shrunk: {write_fixture(small, trace, new[0], SHRINK_OUT)}")
    assert not new, "steplint and the trace disagree (add the gap to differential/known_gaps.py, or fix it):\n" + "\n".join(
        d.describe() for d in new[:20])


@pytest.mark.runtime
def test_every_known_gap_still_shows(batch) -> None:
    _, disagreements, _ = batch
    seen = {key(d) for d in disagreements}
    gone = sorted((set(KNOWN_GAPS) | set(DOC_SANCTIONED)) - seen)
    assert not gone, f"these known gaps no longer show in {PROGRAMS} programs: remove them from known_gaps.py: {gone}"


@pytest.mark.runtime
def test_the_sample_on_the_oldest_release_runs_and_agrees(oldest_batch) -> None:
    disagreements, broken = oldest_batch
    assert not broken, "\n\n".join(f"{name}:\n{error}" for name, error in sorted(broken.items())[:3])
    new = [d for d in disagreements if key(d) not in KNOWN_GAPS and key(d) not in DOC_SANCTIONED]
    assert not new, f"on {OLDEST_RELEASE}, steplint and the trace disagree:\n" + "\n".join(d.describe() for d in new[:20])


def test_known_gaps_name_real_shapes_and_their_families() -> None:
    for (kind, rule, shape), gap in {**KNOWN_GAPS, **DOC_SANCTIONED}.items():
        assert kind in ("false positive", "false negative") and rule in ("STP001", "STP002", "STP020")
        assert shape in SHAPES and gap.reason
        assert gap.family in (SHAPES[shape].family, "dead code")


def test_generation_is_derandomized_and_every_program_parses() -> None:
    for seed in range(40):
        program = generate(seed)
        assert program.files == generate(seed).files
        for path, text in program.files.items():
            ast.parse(text, filename=path)


def test_every_shape_is_generated_in_the_ci_batch() -> None:
    used = {shape for seed in range(PROGRAMS) for lines in generate(seed).shapes_at.values() for shape in lines.values()}
    assert used == set(SHAPES)


def test_a_deletion_keeps_where_each_line_came_from() -> None:
    program = generate(3)
    version = Version.of(program)
    one = next(d for d in reversed(deletions(version)) if d.fill is None)  # one statement, not alone in its body
    smaller = apply(version, [one])
    assert smaller.size() < version.size()
    kept = smaller.as_program(program, "renamed")
    for path, lines in smaller.lines.items():
        for number, (_, origin) in enumerate(lines, 1):
            assert kept.shape_at(path, number) == program.shape_at(path, origin)
