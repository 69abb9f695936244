"""Run generated programs under the tracer and steplint on them, and compare both ways.

Programs are packages side by side under one root folder, so one steplint run lints them all
(each package's modules are named ``<package>.<module>``: no two programs share a module), and
one child interpreter runs a batch of them; batches run in parallel.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from differential.generator import Program
from differential.shapes import SHAPES

RULES = ("STP001", "STP002", "STP020")
TRACE_CHILD = Path(__file__).with_name("trace_child.py")
CHILD_TIMEOUT = 600
DEAD_CODE = "dead code"

Finding = tuple[str, str, int]  # (rule, path relative to the program's folder, line)


@dataclass(frozen=True)
class Trace:
    program: str
    truth: frozenset[Finding]
    reached: frozenset[tuple[str, int]]
    outside: tuple[tuple[str, str], ...]
    error: str | None


@dataclass(frozen=True, order=True)
class Disagreement:
    program: str
    kind: str  # "false positive": steplint reports what no run did; "false negative": the converse
    rule: str
    path: str
    line: int
    shape: str
    family: str

    def describe(self) -> str:
        return f"{self.kind} {self.rule} {self.program}/{self.path}:{self.line} [{self.family}: {self.shape}]"


@dataclass(frozen=True)
class Toolchain:
    """The interpreter that runs the programs (it has agent-framework-core) and the release steplint targets."""

    python: str = sys.executable
    target_version: str | None = None
    target_python: str = f"{sys.version_info[0]}.{sys.version_info[1]}"
    site: str | None = None  # a folder put first on the child's path: another release over *python*'s packages

    @classmethod
    def on_release(cls, version: str) -> "Toolchain":
        """This interpreter with agent-framework-core *version* (installed alone under .venvs/) first on the
        programs' path, and steplint told that release."""
        from release_sites import release_site  # tests/runtime, on the path of pytest and of bench/differential.py

        return cls(target_version=version.rpartition(".")[0], site=str(release_site(version)))


def trace_programs(root: Path, names: list[str], tools: Toolchain, jobs: int = 2) -> dict[str, Trace]:
    batches = [names[index::jobs] for index in range(jobs) if names[index::jobs]]
    children = [
        subprocess.Popen(
            [tools.python, "-W", "ignore", str(TRACE_CHILD), str(root), *batch],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_child_environment(tools.site),
        )
        for batch in batches
    ]
    traces: dict[str, Trace] = {}
    for child, batch in zip(children, batches):
        out, err = child.communicate(timeout=CHILD_TIMEOUT)
        for line in out.splitlines():
            trace = _trace_of(json.loads(line))
            traces[trace.program] = trace
        for name in batch:
            traces.setdefault(name, Trace(name, frozenset(), frozenset(), (), f"the tracer died:\n{err[-3000:]}"))
    return traces


def _child_environment(site: str | None = None) -> dict[str, str]:
    environment = dict(os.environ)
    environment.pop("PYTHONPATH", None)
    if site is not None:
        environment["PYTHONPATH"] = site
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    return environment


def _trace_of(record: dict) -> Trace:
    truth = {(rule, path, line) for rule, path, line in record["nested"]}
    truth |= {("STP020", path, line) for path, line in record["refused"]}
    reached = frozenset((path, line) for path, line in record["reached"])
    outside = tuple(tuple(pair) for pair in record["outside"])
    return Trace(record["program"], frozenset(truth), reached, outside, record["error"])  # type: ignore[arg-type]


def lint_programs(root: Path, tools: Toolchain) -> dict[str, set[Finding]]:
    """steplint's findings under *root*, per program folder."""
    command = [sys.executable, "-m", "steplint", "check", "--format", "json", "--select", ",".join(RULES),
               "--isolated", "--no-cache", "--exit-zero", "--target-python", tools.target_python]
    if tools.target_version:
        command += ["--target-version", tools.target_version]
    completed = subprocess.run([*command, str(root)], capture_output=True, text=True, check=False,
                               timeout=CHILD_TIMEOUT, env=_child_environment())
    if completed.returncode != 0:
        raise RuntimeError(f"steplint failed ({completed.returncode}):\n{completed.stderr[-3000:]}")
    found: dict[str, set[Finding]] = {}
    base = Path(os.path.realpath(root))
    for finding in json.loads(completed.stdout or "[]"):
        program, *rest = Path(os.path.realpath(finding["path"])).relative_to(base).parts
        found.setdefault(program, set()).add((finding["code"], "/".join(rest), finding["line"]))
    return found


def trace_and_lint(root: Path, names: list[str], tools: Toolchain, jobs: int = 2) -> tuple[dict[str, Trace], dict[str, set[Finding]]]:
    """Both at once: the tracer's children and steplint are separate processes."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        linted = pool.submit(lint_programs, root, tools)
        traces = trace_programs(root, names, tools, jobs)
        return traces, linted.result()


def compare(program: Program, trace: Trace, findings: Iterable[Finding]) -> list[Disagreement]:
    reported = set(findings)
    kinds = [("false negative", finding) for finding in trace.truth - reported]
    kinds += [("false positive", finding) for finding in reported - trace.truth]
    return sorted(_disagreement(program, trace, kind, finding) for kind, finding in kinds)


def _disagreement(program: Program, trace: Trace, kind: str, finding: Finding) -> Disagreement:
    rule, path, line = finding
    shape = program.shape_at(path, line) or "unattributed"
    family = SHAPES[shape].family if shape in SHAPES else "unattributed"
    if kind == "false positive" and (path, line) not in trace.reached:
        family = DEAD_CODE  # a line no run reaches: only a rule that reports what MAY happen may report it
    return Disagreement(program.name, kind, rule, path, line, shape, family)


def check_batch(root: Path, programs: list[Program], tools: Toolchain, jobs: int = 2) -> tuple[list[Disagreement], dict[str, str]]:
    """Write, trace and lint *programs*: the disagreements, and the programs that did not run."""
    for program in programs:
        program.write(root)
    traces, found = trace_and_lint(root, [program.name for program in programs], tools, jobs)
    disagreements: list[Disagreement] = []
    broken: dict[str, str] = {}
    for program in programs:
        trace = traces[program.name]
        if trace.error:
            broken[program.name] = trace.error
            continue
        disagreements += compare(program, trace, found.get(program.name, set()))
    return disagreements, broken
