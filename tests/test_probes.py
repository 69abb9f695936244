"""Hand-written programs of shapes the generator does not make, run on the real agent-framework-core and linted.

Each package under ``tests/differential/probes/`` is a program as the differential tester writes them (its
``program.json`` names the workflows and the inputs). Its lines carry what happens inline: ``# expect: STP002``
where a step is entered while another step's body runs (or where MAF refuses a concurrent call, STP020), and
``# unknown: STP002`` where that happens but the analysis does not follow it (README, "What the analysis treats
as unknown"), and ``# imprecise: STP002`` where steplint reports a call the run never makes (a near miss the
analysis cannot tell from the call: README, "Still less precise than Python"). Two comparisons, both ways: the
trace of a real run against the ``expect`` and ``unknown`` marks (so a mark is never a guess about Python or MAF),
and steplint's findings against the ``expect`` and ``imprecise`` marks. A mark that stops being true (the analysis
learned the shape) fails until it is changed to ``expect`` or removed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from differential.oracle import RULES, Toolchain, lint_programs, trace_programs

PROBES = Path(__file__).parent / "differential" / "probes"
MARK = re.compile(r"#\s*(?P<kind>expect|unknown|imprecise):\s*(?P<codes>STP\d{3}(?:\s*,\s*STP\d{3})*)")


def probe_names() -> list[str]:
    return sorted(p.name for p in PROBES.iterdir() if (p / "program.json").is_file())


def marks(name: str) -> dict[str, set[tuple[str, str, int]]]:
    """``expect``, ``unknown`` and ``imprecise`` marks of probe *name*: (rule, path in the program's folder, line)."""
    found: dict[str, set[tuple[str, str, int]]] = {"expect": set(), "unknown": set(), "imprecise": set()}
    for path in sorted((PROBES / name).rglob("*.py")):
        relative = path.relative_to(PROBES / name).as_posix()
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for mark in MARK.finditer(line):
                for code in re.split(r"\s*,\s*", mark["codes"]):
                    if code in RULES:
                        found[mark["kind"]].add((code, relative, number))
    return found


@pytest.fixture(scope="module")
def traces():  # noqa: ANN201 - what a run of each probe did
    return trace_programs(PROBES, probe_names(), Toolchain())


@pytest.fixture(scope="module")
def findings():  # noqa: ANN201 - steplint's findings per probe
    return lint_programs(PROBES, Toolchain())


def test_every_probe_marks_a_finding() -> None:
    for name in probe_names():
        assert marks(name)["expect"], f"{name} marks no finding"


@pytest.mark.runtime
@pytest.mark.parametrize("name", probe_names())
def test_the_marks_are_what_a_run_does(traces, name: str) -> None:  # noqa: ANN001
    assert traces[name].error is None, f"{name} did not run:\n{traces[name].error}"
    marked = marks(name)
    assert traces[name].truth == marked["expect"] | marked["unknown"]


@pytest.mark.parametrize("name", probe_names())
def test_steplint_reports_the_expected_lines(findings, name: str) -> None:  # noqa: ANN001
    marked = marks(name)
    assert findings.get(name, set()) == marked["expect"] | marked["imprecise"]
