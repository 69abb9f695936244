"""Generated workflow programs: a package per program, composed of shapes.

A program is a package ``<name>/`` with ``tools.py`` (the inner steps, a plain function, the
record types), ``extra.py`` (plain functions that share a step's name), ``main.py`` (outer steps
and the workflow) and ``__init__.py`` (re-exports). Each shape adds definitions to one of the
modules and statements to an outer step's body (or the workflow's), and tags every line it
writes with its own name, so a disagreement at a line names the shape, and so its family.

Nothing here predicts what MAF will do: the trace is the oracle. Shapes only promise that every
line they write in a body runs in some run: branches depend on ``mode`` alone, and the runner
runs every workflow once per mode in ``MODES``.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from differential import shapes

MODES = ("a", "b")
STEP_NAMES = ("fetch", "load", "score", "summarize", "notify", "enrich", "store", "rank", "classify", "route")
STDLIB_IMPORTS = (
    "import asyncio",
    "import collections",
    "import contextlib",
    "import enum",
    "import functools",
    "import itertools",
    "import operator",
    "from collections import namedtuple",
    "from dataclasses import dataclass",
)
SIDECAR = "program.json"


@dataclass
class InnerStep:
    name: str
    takes_job: bool  # a Job argument has no fingerprint: concurrent calls are refused on 1.20+


@dataclass
class Line:
    text: str
    shape: str


@dataclass
class Program:
    name: str
    files: dict[str, str]
    shapes_at: dict[str, dict[int, str]]  # relative path -> line -> shape that wrote it
    workflows: list[str]
    modes: tuple[str, ...] = MODES

    def write(self, root: Path) -> Path:
        folder = root / self.name
        folder.mkdir(parents=True, exist_ok=True)
        for relative, text in self.files.items():
            (folder / relative).write_text(text, encoding="utf-8")
        sidecar = {"workflows": self.workflows, "modes": list(self.modes)}
        (folder / SIDECAR).write_text(json.dumps(sidecar), encoding="utf-8")
        return folder

    def shape_at(self, relative: str, line: int) -> str | None:
        return self.shapes_at.get(relative, {}).get(line)


@dataclass
class Builder:
    """What a shape writes into: definitions per module, outer step bodies, the workflow body."""

    package: str
    rng: random.Random
    steps: list[InnerStep]
    plain: str = "plain_value"
    shape: str = ""
    counter: int = 0
    defs: dict[str, list[Line]] = field(default_factory=lambda: {"tools": [], "main": [], "extra": []})
    imports: dict[str, set[str]] = field(default_factory=lambda: {"tools": set(), "main": set(), "extra": set()})
    bodies: list[list[Line]] = field(default_factory=lambda: [[]])
    flow: list[Line] = field(default_factory=list)
    reexports: set[str] = field(default_factory=set)
    idioms: tuple[str, ...] = ()  # the import idioms this program uses (a real code base sticks to a few)

    def uid(self) -> int:
        self.counter += 1
        return self.counter

    def step(self, *, job: bool | None = None) -> InnerStep:
        pool = [s for s in self.steps if job is None or s.takes_job == job]
        return self.rng.choice(pool)

    def arg(self, inner: InnerStep, module: str = "main", text: str = "mode") -> str:
        return f"{self.ref('Job', module)}({text})" if inner.takes_job else text

    def home(self) -> str:
        """Where a shape's helper definitions go: next to the step bodies or in the tools module."""
        return self.rng.choice(("main", "tools"))

    def define(self, module: str, lines: list[str]) -> None:
        self.defs[module].extend(Line(text, self.shape) for text in [*lines, ""])

    def body(self, lines: list[str]) -> None:
        self.bodies[-1].extend(Line(text, self.shape) for text in lines)

    def in_flow(self, lines: list[str]) -> None:
        self.flow.extend(Line(text, self.shape) for text in lines)

    def ref(self, name: str, module: str, defined_in: str = "tools", idiom: str | None = None) -> str:
        """An expression naming *name* (defined in *defined_in*) from *module*, adding the import it needs."""
        if module == defined_in:
            return name
        if module == "tools":
            raise ValueError("tools imports nothing of the program")
        chosen = idiom or self.rng.choice(self.idioms or IMPORT_IDIOMS)
        expression, statement = IMPORT_FORMS[chosen](self.package, defined_in, name)
        if chosen == "package-reexport":
            self.reexports.add(f"from .{defined_in} import {name}")
        self.imports[module].add(statement)
        return expression


IMPORT_FORMS = {
    "from-relative": lambda package, module, name: (name, f"from .{module} import {name}"),
    "from-absolute": lambda package, module, name: (name, f"from {package}.{module} import {name}"),
    "alias": lambda package, module, name: (f"{name}_{module}", f"from .{module} import {name} as {name}_{module}"),
    "module-relative": lambda package, module, name: (f"{module}.{name}", f"from . import {module}"),
    "module-alias": lambda package, module, name: (f"{module}_mod.{name}", f"import {package}.{module} as {module}_mod"),
    "dotted": lambda package, module, name: (f"{package}.{module}.{name}", f"import {package}.{module}"),
    "star": lambda package, module, name: (name, f"from .{module} import *"),
    "package-reexport": lambda package, module, name: (name, f"from {package} import {name}"),
}
IMPORT_IDIOMS = tuple(IMPORT_FORMS)


def generate(seed: int, name: str | None = None) -> Program:
    rng = random.Random(seed)
    package = name or f"p{seed:05d}"
    names = rng.sample(STEP_NAMES, 3)
    steps = [InnerStep(names[0], False), InnerStep(names[1], True), InnerStep(names[2], rng.random() < 0.5)]
    builder = Builder(package, rng, steps, idioms=tuple(rng.sample(IMPORT_IDIOMS, rng.randint(1, 3))))
    for index in range(rng.choice((1, 1, 2))):
        if index:
            builder.bodies.append([])
        for shape_name in rng.sample(sorted(shapes.SHAPES), rng.randint(2, 4)):
            builder.shape = shape_name
            shapes.SHAPES[shape_name].build(builder)
    return render(builder)


def render(builder: Builder) -> Program:
    shapes_at: dict[str, dict[int, str]] = {}
    files = {
        "__init__.py": _text(shapes_at, "__init__.py", [Line(s, "") for s in sorted(builder.reexports)]),
        "tools.py": _text(shapes_at, "tools.py", _tools_lines(builder)),
        "extra.py": _text(shapes_at, "extra.py", _header(builder, "extra") + builder.defs["extra"]),
        "main.py": _text(shapes_at, "main.py", _main_lines(builder)),
    }
    return Program(builder.package, files, shapes_at, workflows=["flow"])


def _text(shapes_at: dict[str, dict[int, str]], relative: str, lines: list[Line]) -> str:
    shapes_at[relative] = {number: line.shape for number, line in enumerate(lines, 1) if line.shape}
    return "".join(line.text + "\n" for line in lines)


def _header(builder: Builder, module: str) -> list[Line]:
    imports = [*STDLIB_IMPORTS, "from agent_framework import step, workflow", *sorted(builder.imports[module])]
    return [Line(text, "") for text in [*imports, "", ""]]


def _tools_lines(builder: Builder) -> list[Line]:
    lines = _header(builder, "tools")
    fixed = ["@dataclass", "class Job:", "    label: str", "", "",
             f"async def {builder.plain}(x) -> str:", '    return f"p:{x}"', "", ""]
    for inner in builder.steps:
        parameter = "job: Job" if inner.takes_job else "x: str"
        value = "job.label" if inner.takes_job else "x"
        fixed += ["@step", f"async def {inner.name}({parameter}) -> str:", f'    return "{inner.name}:" + {value}', "", ""]
    return lines + [Line(text, "") for text in fixed] + builder.defs["tools"]


def _main_lines(builder: Builder) -> list[Line]:
    outer_lines: list[Line] = []
    for index, body in enumerate(builder.bodies):
        outer_lines += [Line(text, "") for text in ["@step", f"async def outer_{index}(mode: str) -> str:", "    out: list = []"]]
        outer_lines += [Line("    " + line.text, line.shape) for line in body]
        outer_lines += [Line(text, "") for text in ['    return "|".join(map(str, out))', "", ""]]
    flow = [Line(text, "") for text in ["@workflow", "async def flow(mode: str) -> str:", "    parts: list = []"]]
    flow += [Line(f"    parts.append(await outer_{index}(mode))", "") for index in range(len(builder.bodies))]
    flow += [Line("    " + line.text, line.shape) for line in builder.flow]
    flow += [Line('    return "|".join(map(str, parts))', "")]
    return _header(builder, "main") + builder.defs["main"] + outer_lines + flow
