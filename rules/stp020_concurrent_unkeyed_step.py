from __future__ import annotations

from typing import Iterator

from steplint.diagnostics import Diagnostic
from steplint.model import Analysis, Decorated
from steplint.plain_walk import PlainWalk, display
from steplint.rules.base import Rule
from steplint.summary import CallSite, FunctionSummary, ModuleSummary

# What runs a coroutine in another task, by full name (``X()`` is a value X makes).
_SPAWNERS = frozenset({
    "asyncio.gather", "asyncio.create_task", "asyncio.ensure_future", "asyncio.shield", "asyncio.as_completed",
    "asyncio.TaskGroup().create_task", "asyncio.get_running_loop().create_task",
    "asyncio.get_event_loop().create_task", "asyncio.AbstractEventLoop().create_task",
})
_PRIVATE_MODULES = ("asyncio.tasks.", "asyncio.taskgroups.", "asyncio.events.")


def spawner(name: str | None) -> str | None:
    """``asyncio.gather`` for any spelling of it (``asyncio.tasks.gather``), or None."""
    if name is None:
        return None
    for private in _PRIVATE_MODULES:
        if name.startswith(private):
            name = "asyncio." + name[len(private):]
    return name if name in _SPAWNERS else None


class ConcurrentUnkeyedStep(Rule):
    """
    ## What it does
    Finds a step without a replay identity called concurrently: its call (not
    awaited) is an argument of `asyncio.gather`, `asyncio.create_task`,
    `asyncio.ensure_future`, `asyncio.shield`, `asyncio.as_completed`,
    `TaskGroup.create_task` (a group bound by `async with
    asyncio.TaskGroup() as tg`, `tg = asyncio.TaskGroup()` or a parameter
    annotated `asyncio.TaskGroup`) or `loop.create_task`, under any import
    alias; or it sits in a comprehension or generator fed to one
    (`gather(*[fetch(x) for x in xs])`); or it is stored in a local that is
    then passed to one (`tasks.append(fetch(x))` ... `gather(*tasks)`). A
    plain helper of the analyzed code fed to one of them, which calls such a
    step, is reported too, with the chain. Reported at the call.

    "Without a replay identity" is MAF's own test (1.20+): no `replay_key`,
    and an argument that cannot be fingerprinted (STP010's test), a closure
    (STP012), a non-durable default (STP013), or made during a run.
    Silent on 1.19 and older, which have no replay identity to check, and
    for `asyncio.wait_for` (it runs the coroutine in the same task on 3.12).

    ## Why is this bad?
    MAF (1.20+) refuses to key a step call by call order in a task other
    than the workflow's own: such a call raises `ValueError` ("Cannot
    derive a stable replay identity for concurrent @step"), on the first
    run, checkpoints or not.

    ## Example
    ```python
    @workflow
    async def pipeline(jobs: list[str]) -> list[str]:
        return await asyncio.gather(*[fetch(Job(label=j)) for j in jobs])
    ```

    ## Use instead
    Give the step a `replay_key` that tells the calls apart, or pass
    fingerprintable arguments:
    ```python
    @step(replay_key=lambda job: job.label)
    async def fetch(job: Job) -> str: ...
    ```
    """

    code = "STP020"
    name = "concurrent-unkeyed-step"
    summary = "a step without a replay identity is called concurrently (gather, create_task, TaskGroup)"
    INVALID = (
        """
import asyncio
from dataclasses import dataclass
from agent_framework import step, workflow

@dataclass
class Job:
    label: str

@step
async def fetch(job: Job) -> str:
    return job.label

@workflow
async def pipeline(labels: list[str]) -> list[str]:
    return await asyncio.gather(*[fetch(Job(label)) for label in labels])  # expect: STP020
""",
    )
    VALID = (
        """
import asyncio
from agent_framework import step, workflow

@step
async def fetch(label: str) -> str:
    return label

@workflow
async def pipeline(labels: list[str]) -> list[str]:
    return await asyncio.gather(*[fetch(label) for label in labels])
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        if not analysis.fingerprints:
            return
        walk = analysis.service(PlainWalk)
        for function in module.functions:
            stored = self._spawned_names(analysis, module, function)
            for call in function.calls:
                how = self._spawned_by(analysis, module, function, call, stored)
                if how is None:
                    continue
                target = analysis.call_target(module, function, call)
                step = analysis.step_of(target)
                if step is not None:
                    reason = analysis.call_order_reason(step)
                    if reason is not None:
                        yield self._report(analysis, module, call, step, how, reason, f"step '{step.display}'")
                elif walk.plain_function(target):
                    for reached in walk.reached(target):  # type: ignore[arg-type]
                        inner = analysis.step_of(analysis.call_target(reached.module, reached.owner, reached.call))
                        reason = analysis.call_order_reason(inner) if inner is not None else None
                        if inner is not None and reason is not None:
                            path = " -> ".join([*(display(t) for t in reached.chain), inner.display])
                            what = f"'{path.split(' -> ')[0]}', which calls step '{inner.display}' ({path}),"
                            yield self._report(analysis, module, call, inner, how, reason, what)
                            break

    @staticmethod
    def _spawned_names(analysis: Analysis, module: ModuleSummary, function: FunctionSummary) -> dict[str, str]:
        """Locals passed to a spawner in this function (``gather(*tasks)``), with the spawner."""
        names: dict[str, str] = {}
        for call in function.calls:
            how = spawner(analysis.call_name(module, function, call.callee))
            if how is not None:
                for name in call.arg_names:
                    names.setdefault(name, how)
        return names

    @staticmethod
    def _spawned_by(
        analysis: Analysis, module: ModuleSummary, function: FunctionSummary, call: CallSite, stored: dict[str, str]
    ) -> str | None:
        """The spawner that runs this call's coroutine in another task, if one does."""
        if call.awaited:
            return None
        if call.enclosing:
            how = spawner(analysis.call_name(module, function, call.enclosing[0]))
            if how is not None:
                return how
        return stored.get(call.sink) if call.sink is not None else None

    @staticmethod
    def _report(
        analysis: Analysis, module: ModuleSummary, call: CallSite, step: Decorated, how: str, reason: str, what: str
    ) -> Diagnostic:
        return analysis.diagnostic(
            module,
            call.span,
            ConcurrentUnkeyedStep,
            f"{what} runs concurrently through {how.replace('()', '')}, but MAF cannot derive its replay identity "
            f"({reason}): inside a workflow the call raises ValueError; add replay_key=... to '{step.display}' "
            "or pass fingerprintable arguments",
        )
