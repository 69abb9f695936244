"""Workflows made of trees of nested step calls, crashed once and resumed.

A tree node is one ``@step`` call: which step, its argument's label, and the
calls its body makes. Labels come from a small alphabet, so the same step is
called with the same argument in several places (exercising MAF 1.20+'s
per-identity occurrence counters); the argument is a string or a pydantic
model (which MAF cannot fingerprint, so it falls back to call-order keys).

A body learns its position in the tree from a context variable its caller
sets, and its result names that position. So a cached result replayed for the
wrong call changes the output, and every completed body is logged by position
to check that each call completes exactly once over a crash and a resume.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import agent_framework as maf
from shim_support import chain, label_of, make_arg

Path = tuple[int, ...]
PHASES = ("before", "after")


@dataclass(frozen=True)
class Node:
    step: str
    label: str
    children: tuple[Node, ...] = ()
    via_helper: bool = False  # the parent calls it through a plain async helper
    concurrent_children: bool = False  # the children are awaited with asyncio.gather


def walk(nodes: tuple[Node, ...], prefix: Path = ()) -> Iterator[tuple[Path, Node]]:
    """Every (path, node) in call order."""
    for index, node in enumerate(nodes):
        path = (*prefix, index)
        yield path, node
        yield from walk(node.children, path)


def crash_points(roots: tuple[Node, ...]) -> list[tuple[Path, str]]:
    """Every place a run can crash: at the start of a body, or after its children returned."""
    return [(path, phase) for path, _ in walk(roots) for phase in PHASES]


def expected_result(node: Node, path: Path) -> str:
    children = ",".join(expected_result(child, (*path, index)) for index, child in enumerate(node.children))
    return f"{node.step}.{node.label}@{'.'.join(map(str, path))}[{children}]"


def expected_output(roots: tuple[Node, ...]) -> list[list[str]]:
    return [[expected_result(node, (index,)) for index, node in enumerate(roots)]]


def has_nesting(roots: tuple[Node, ...]) -> bool:
    return any(node.children for node in roots)


class Crash(Exception):
    """The simulated crash of a first run."""


@dataclass
class Scenario:
    roots: tuple[Node, ...]
    kind: str
    crash: tuple[Path, str] | None = None
    completions: list[Path] = field(default_factory=list)
    crashed: bool = False
    interleave: bool = False  # bodies yield to the event loop, so concurrent runs interleave

    def node_at(self, path: Path) -> Node:
        nodes, node = self.roots, None
        for index in path:
            node = nodes[index]
            nodes = node.children
        assert node is not None
        return node

    def checkpoint(self, path: Path, phase: str) -> None:
        if not self.crashed and self.crash == (path, phase):
            self.crashed = True
            raise Crash(f"crash {phase} children of {path}")

    def complete(self, path: Path) -> None:
        """Record that the body at *path* returned (subclasses also journal it to disk)."""
        self.completions.append(path)


SCENARIO: Scenario | None = None
# Workflows running at once in one loop each set their own scenario here (their
# tasks inherit it); otherwise the module's SCENARIO is the one.
RUNNING_SCENARIO: ContextVar[Scenario | None] = ContextVar("shim_trees_running_scenario", default=None)
CURRENT_PATH: ContextVar[Path] = ContextVar("shim_trees_current_path", default=())


def current_scenario() -> Scenario:
    scenario = RUNNING_SCENARIO.get() or SCENARIO
    assert scenario is not None
    return scenario


async def _call_child(path: Path, child: Node) -> str:
    token = CURRENT_PATH.set(path)
    try:
        argument = make_arg(current_scenario().kind, child.label)
        if child.via_helper:
            return await _helper(STEPS[child.step], argument)
        return await STEPS[child.step](argument)
    finally:
        CURRENT_PATH.reset(token)


async def _helper(step: Any, argument: Any) -> str:
    return await step(argument)


async def _call_children(prefix: Path, children: tuple[Node, ...], concurrent: bool) -> list[str]:
    if concurrent:
        return list(await asyncio.gather(*(_call_child((*prefix, i), child) for i, child in enumerate(children))))
    return [await _call_child((*prefix, i), child) for i, child in enumerate(children)]


async def _body(step: str, argument: Any) -> str:
    scenario = current_scenario()
    path = CURRENT_PATH.get()
    node = scenario.node_at(path)
    assert (node.step, node.label) == (step, label_of(argument)), (path, node, step, argument)
    if scenario.interleave:
        await asyncio.sleep(0)
    scenario.checkpoint(path, "before")
    children = await _call_children(path, node.children, node.concurrent_children)
    if scenario.interleave:
        await asyncio.sleep(0)
    scenario.checkpoint(path, "after")
    scenario.complete(path)
    return f"{step}.{node.label}@{'.'.join(map(str, path))}[{','.join(children)}]"


@maf.step
async def alpha(job: Any) -> str:
    return await _body("alpha", job)


@maf.step
async def beta(job: Any) -> str:
    return await _body("beta", job)


@maf.step
async def gamma(job: Any) -> str:
    return await _body("gamma", job)


STEPS = {"alpha": alpha, "beta": beta, "gamma": gamma}
STEP_NAMES = tuple(STEPS)


@maf.workflow(name="tree")
async def tree(_: str) -> list[str]:
    return await _call_children((), current_scenario().roots, False)


@contextmanager
def storage_of(kind: str) -> Iterator[Any]:
    if kind == "memory":
        yield maf.InMemoryCheckpointStorage()
        return
    with tempfile.TemporaryDirectory(prefix="steplint-shim-") as directory:
        yield maf.FileCheckpointStorage(directory)


@dataclass
class Outcome:
    output: list[Any] | None
    error: BaseException | None
    completions: list[Path]
    checkpoints_in_first_run: int

    def completed_exactly_once(self, roots: tuple[Node, ...]) -> bool:
        return Counter(self.completions) == Counter(path for path, _ in walk(roots))

    def described(self) -> tuple[Any, ...]:
        """What two runs must share to count as the same: output, error and message, bodies completed."""
        error = None if self.error is None else f"{type(self.error).__name__}: {self.error}"
        return (self.output, error, sorted(self.completions))


def start(scenario: Scenario) -> Scenario:
    """Make *scenario* the one of the workflow about to run in this context (and the tasks it starts).

    It also becomes the module's SCENARIO, for a later run started without one.
    """
    global SCENARIO
    SCENARIO = scenario
    RUNNING_SCENARIO.set(scenario)
    return scenario


async def run_tree(storage: Any, checkpoint: Any | None) -> Any:
    """Run the tree workflow afresh, or resume it from *checkpoint*."""
    workflow = tree.build(checkpoint_storage=storage)
    if checkpoint is None:
        return await workflow.run("go")
    return await workflow.run(checkpoint_id=checkpoint.checkpoint_id)


async def run_uninterrupted(roots: tuple[Node, ...], kind: str, storage: Any = None) -> Outcome:
    return await resume(roots, kind, storage, None)


async def crash_first_run(
    roots: tuple[Node, ...],
    kind: str,
    crash: tuple[Path, str],
    storage: Any,
    checkpoint: Any | None = None,
    interleave: bool = False,
) -> Scenario:
    """Run the tree (or resume it from *checkpoint*) until it crashes at *crash*; return the scenario."""
    scenario = start(Scenario(roots, kind, crash, interleave=interleave))
    try:
        await run_tree(storage, checkpoint)
    except Crash:
        pass
    assert scenario.crashed, "the crash point was never reached"
    return scenario


async def resume(
    roots: tuple[Node, ...], kind: str, storage: Any, checkpoint: Any | None, interleave: bool = False
) -> Outcome:
    """Resume the tree from *checkpoint* (start again without one); completions are this run's only."""
    scenario = start(Scenario(roots, kind, interleave=interleave))
    try:
        result = await run_tree(storage, checkpoint)
        return Outcome(result.get_outputs(), None, scenario.completions, 0)
    except Exception as exc:
        return Outcome(None, exc, scenario.completions, 0)


async def crash_and_resume(
    roots: tuple[Node, ...],
    kind: str,
    crash: tuple[Path, str],
    storage: Any,
    resume_from: int | None = None,
    interleave: bool = False,
) -> Outcome:
    """Crash a first run at *crash*, then resume from its latest checkpoint.

    With *resume_from*, resume from that index (modulo their number) of the
    first run's checkpoints instead. Without any checkpoint, start again.
    The outcome's completions are those of both runs. With *interleave*, step
    bodies yield to the event loop, so workflows running at once interleave.
    """
    first = await crash_first_run(roots, kind, crash, storage, interleave=interleave)
    checkpoints = await chain(storage, "tree")
    target = None
    if checkpoints:
        target = checkpoints[-1 if resume_from is None else resume_from % len(checkpoints)]
    outcome = await resume(roots, kind, storage, target, interleave)
    outcome.completions[:0] = first.completions
    outcome.checkpoints_in_first_run = len(checkpoints)
    return outcome
