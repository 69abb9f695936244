"""Which plain functions reach a step, and through what chain.

A breadth-first walk from the called function over the calls of plain
functions (not steps, not workflows) finds the shortest chain to a step;
ties go to the earlier call in source order, so results never depend on the
order in which questions are asked. Cycles end at functions already seen.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from steplint.analysis.index import Target
from steplint.analysis.program import Analysis, Decorated
from steplint.core.summary import FunctionSummary, ModuleSummary


@dataclass(frozen=True, slots=True)
class Reach:
    chain: tuple[Target, ...]  # the plain functions, first to last
    step: Decorated


class StepReach:
    def __init__(self, analysis: Analysis):
        self.analysis = analysis
        self._memo: dict[str, Reach | None] = {}

    def plain_function(self, target: Target | None) -> bool:
        if target is None or target.kind != "function" or target.function is None or target.module is None:
            return False
        return self.analysis.body_kind(target.module, target.function) is None

    def reach(self, start: Target) -> Reach | None:
        """The shortest chain from the plain function ``start`` to a step it calls."""
        if start.key in self._memo:
            return self._memo[start.key]
        analysis = self.analysis
        parents: dict[str, tuple[Target, ...]] = {start.key: (start,)}
        queue: deque[Target] = deque([start])
        found: Reach | None = None
        while queue and found is None:
            current = queue.popleft()
            module, function = current.module, current.function
            assert isinstance(module, ModuleSummary) and isinstance(function, FunctionSummary)
            for owner, call in analysis.lexical_calls(module, function):
                target = analysis.call_target(module, owner, call)
                step = analysis.step_of(target)
                if step is not None:
                    found = Reach(parents[current.key], step)
                    break
                if self.plain_function(target) and target.key not in parents:  # type: ignore[union-attr]
                    parents[target.key] = (*parents[current.key], target)  # type: ignore[union-attr]
                    queue.append(target)  # type: ignore[arg-type]
        self._memo[start.key] = found
        return found
