"""Delta debugging: shrink a program to the fewest statements that still show one disagreement.

A candidate deletes one statement (any body, any module; an emptied body gets ``pass``) or
empties a whole module. Each round writes every candidate as its own package and judges them
all with one tracer batch and one steplint run; the deletions that keep the disagreement are then
applied together (halved until the combination keeps it too). Lines remember where they came
from, so "the same disagreement" means the same kind, rule and shape, wherever the line moved.
The result is written with ``# expect:`` comments on the lines the trace reports, the form of a
multi-module fixture in fixtures/.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from differential.generator import SIDECAR, Program
from differential.oracle import Disagreement, Toolchain, Trace, compare, trace_and_lint, trace_programs

MAX_ROUNDS = 30


@dataclass(frozen=True)
class Version:
    """A program's files as lists of lines, each with the original line it came from (or 0)."""

    lines: dict[str, tuple[tuple[str, int], ...]]

    @staticmethod
    def of(program: Program) -> "Version":
        return Version({path: tuple((text, number) for number, text in enumerate(source.splitlines(), 1))
                        for path, source in program.files.items()})

    def size(self) -> int:
        return sum(1 for lines in self.lines.values() for text, _ in lines if text.strip())

    def as_program(self, original: Program, name: str) -> Program:
        pattern = re.compile(rf"\b{re.escape(original.name)}\b")
        files = {path: "".join(pattern.sub(name, text) + "\n" for text, _ in lines) for path, lines in self.lines.items()}
        shapes_at = {path: {new: shape for new, (_, old) in enumerate(lines, 1)
                            if (shape := original.shape_at(path, old))} for path, lines in self.lines.items()}
        return replace(original, name=name, files=files, shapes_at=shapes_at)


@dataclass(frozen=True)
class Deletion:
    path: str
    first: int  # 1-based, inclusive
    last: int
    fill: str | None  # "pass" at this indentation when the statement was alone in its body


def deletions(version: Version) -> list[Deletion]:
    found: list[Deletion] = []
    for path, lines in version.lines.items():
        if any(text.strip() for text, _ in lines):
            found.append(Deletion(path, 1, len(lines), None))
        source = "".join(text + "\n" for text, _ in lines)
        for node in ast.walk(ast.parse(source)):
            for body in _bodies(node):
                for statement in body:
                    fill = " " * statement.col_offset + "pass" if len(body) == 1 and not isinstance(node, ast.Module) else None
                    first = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", []))])
                    found.append(Deletion(path, first, statement.end_lineno or statement.lineno, fill))
    return sorted(found, key=lambda d: d.first - d.last)  # the largest first


def _bodies(node: ast.AST) -> list[list[ast.stmt]]:
    return [value for name in ("body", "orelse", "finalbody") if isinstance(value := getattr(node, name, None), list)
            and value and isinstance(value[0], ast.stmt)] + [h.body for h in getattr(node, "handlers", [])] + [
        c.body for c in getattr(node, "cases", [])]


def apply(version: Version, chosen: list[Deletion]) -> Version:
    lines = {path: list(current) for path, current in version.lines.items()}
    for deletion in sorted(chosen, key=lambda d: (d.path, -d.first)):
        current = lines[deletion.path]
        if any(other.path == deletion.path and other.first <= deletion.first and deletion.last <= other.last
               and other.last - other.first > deletion.last - deletion.first for other in chosen):
            continue  # inside a statement (or module) deleted too
        filler = [(deletion.fill, 0)] if deletion.fill else []
        current[deletion.first - 1:deletion.last] = filler
    return Version({path: tuple(current) for path, current in lines.items()})


@dataclass
class Judge:
    """Runs candidates in batches; a candidate keeps *target* when its kind, rule and shape are seen again."""

    original: Program
    target: Disagreement
    tools: Toolchain
    scratch: Path
    runs: int = 0
    names: list[str] = field(default_factory=list)

    def keeps(self, versions: list[Version]) -> list[bool]:
        programs = []
        for version in versions:
            self.runs += 1
            name = f"{self.original.name}_s{self.runs}"
            candidate = version.as_program(self.original, name)
            try:
                for text in candidate.files.values():
                    ast.parse(text)
            except SyntaxError:
                programs.append(None)
                continue
            candidate.write(self.scratch)
            programs.append(candidate)
        live = [p for p in programs if p is not None]
        traces, found = trace_and_lint(self.scratch, [p.name for p in live], self.tools) if live else ({}, {})
        verdicts = [p is not None and self._same(p, traces[p.name], found.get(p.name, set())) for p in programs]
        for p in live:
            shutil.rmtree(self.scratch / p.name, ignore_errors=True)
        return verdicts

    def _same(self, program: Program, trace: Trace, findings: set) -> bool:
        if trace.error:
            return False
        # The family too: a false positive must stay at a line that runs (else it turns "dead code").
        return any((d.kind, d.rule, d.shape, d.family) == (self.target.kind, self.target.rule, self.target.shape, self.target.family)
                   for d in compare(program, trace, findings))


def shrink(program: Program, target: Disagreement, tools: Toolchain) -> tuple[Program, Trace]:
    with tempfile.TemporaryDirectory(prefix="steplint-shrink-") as scratch:
        judge = Judge(program, target, tools, Path(scratch))
        version = Version.of(program)
        foreign = apply(version, _other_shapes(version, program, target.shape))
        if judge.keeps([foreign])[0]:
            version = foreign
        for _ in range(MAX_ROUNDS):
            candidates = deletions(version)
            kept = [d for d, ok in zip(candidates, judge.keeps([apply(version, [d]) for d in candidates])) if ok]
            if not kept:
                break
            version = _apply_largest_working(judge, version, kept)
        final = _without_blank_runs(version).as_program(program, program.name)
        final.write(Path(scratch))
        trace = trace_programs(Path(scratch), [final.name], tools)[final.name]
    return final, trace


def _other_shapes(version: Version, program: Program, shape: str) -> list[Deletion]:
    """The statements only other shapes wrote: the first guess, one run instead of a round per shape."""
    chosen = []
    for deletion in deletions(version):
        origins = [old for _, old in version.lines[deletion.path][deletion.first - 1:deletion.last]]
        shapes = {program.shape_at(deletion.path, old) for old in origins}
        if shape not in shapes and shapes - {None}:
            chosen.append(deletion)
    return chosen


def _without_blank_runs(version: Version) -> Version:
    kept: dict[str, tuple[tuple[str, int], ...]] = {}
    for path, lines in version.lines.items():
        out: list[tuple[str, int]] = []
        for text, old in lines:
            if text.strip() or (out and out[-1][0].strip()):
                out.append((text, old))
        kept[path] = tuple(out)
    return Version(kept)


def _apply_largest_working(judge: Judge, version: Version, kept: list[Deletion]) -> Version:
    return apply(version, _accepted(judge, version, [], kept))


def _accepted(judge: Judge, base: Version, accepted: list[Deletion], group: list[Deletion]) -> list[Deletion]:
    """*accepted* plus as many of *group* as keep the disagreement with them: all, else each half in turn."""
    if judge.keeps([apply(base, accepted + group)])[0]:
        return accepted + group
    if len(group) == 1:
        return accepted
    half = len(group) // 2
    return _accepted(judge, base, _accepted(judge, base, accepted, group[:half]), group[half:])


def write_fixture(program: Program, trace: Trace, target: Disagreement, out: Path) -> Path:
    """The shrunk program with ``# expect:`` on each line the trace reports, under *out*."""
    folder = out / f"{target.family}-{target.kind}-{target.rule}-{target.shape}".replace(" ", "_").replace(":", "")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    expected: dict[tuple[str, int], set[str]] = {}
    for rule, path, line in trace.truth:
        expected.setdefault((path, line), set()).add(rule)
    for path, text in program.files.items():
        if not text.strip() and path != "__init__.py":
            continue
        lines = text.splitlines()
        for (where, line), rules in expected.items():
            if where == path:
                lines[line - 1] += "  # expect: " + ", ".join(sorted(rules))
        (folder / path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    (folder / SIDECAR).write_text(json.dumps({"workflows": program.workflows, "modes": list(program.modes)}), encoding="utf-8")
    return folder
