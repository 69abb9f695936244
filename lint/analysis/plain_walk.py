"""Calls reached from a plain function through other plain functions.

A breadth-first walk from a plain (non-step, non-workflow) function of the
analyzed code over the calls in its own body (not in nested defs, which run
only when called), following calls to further plain functions. Each call is
yielded once with the chain of plain functions that reaches it, shortest
chains first and ties in source order, so results never depend on the order
in which questions are asked. Cycles end at functions already seen; steps
and workflows end a chain (their bodies run under MAF's control).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from steplint.analysis.index import Target
from steplint.analysis.program import Analysis
from steplint.analysis.step_reach import StepReach
from steplint.core.summary import CallSite, FunctionSummary, ModuleSummary


@dataclass(frozen=True, slots=True)
class Reached:
    chain: tuple[Target, ...]  # the plain functions, from the start to the one making the call
    module: ModuleSummary
    owner: FunctionSummary
    call: CallSite


class PlainWalk:
    def __init__(self, analysis: Analysis):
        self.analysis = analysis
        self._memo: dict[str, list[Reached]] = {}

    def plain_function(self, target: Target | None) -> bool:
        return self.analysis.service(StepReach).plain_function(target)

    def reached(self, start: Target) -> list[Reached]:
        """Every call made by the plain function ``start`` or by plain functions it calls."""
        found = self._memo.get(start.key)
        if found is not None:
            return found
        found = []
        chains: dict[str, tuple[Target, ...]] = {start.key: (start,)}
        queue: deque[Target] = deque([start])
        while queue:
            current = queue.popleft()
            module, function = current.module, current.function
            assert isinstance(module, ModuleSummary) and isinstance(function, FunctionSummary)
            for call in function.calls:
                found.append(Reached(chains[current.key], module, function, call))
                target = self.analysis.call_target(module, function, call)
                if self.plain_function(target) and target.key not in chains:  # type: ignore[union-attr]
                    chains[target.key] = (*chains[current.key], target)  # type: ignore[union-attr]
                    queue.append(target)  # type: ignore[arg-type]
        self._memo[start.key] = found
        return found


def display(target: Target) -> str:
    return target.name.replace(".<locals>", "")
