from __future__ import annotations

from typing import Iterator

from steplint.core.diagnostics import Diagnostic
from steplint.analysis.program import Analysis, Decorated
from steplint.analysis.plain_walk import PlainWalk, display
from steplint.rules.base import Rule
from steplint.core.summary import CallSite, Expr, FunctionSummary, ModuleSummary

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
    Finds, in a workflow or step body (nested functions included), a call
    of a step without a replay identity that runs in another task: the call
    (not awaited) is an argument of `asyncio.gather`, `asyncio.create_task`,
    `asyncio.ensure_future`, `asyncio.shield`, `asyncio.as_completed`,
    `TaskGroup.create_task` or `loop.create_task`, under any import alias;
    or it is an item of a comprehension or generator that is one
    (`gather(*[fetch(x) for x in xs])`); or it is stored in a local that is
    then passed to one (`tasks.append(fetch(x))` ... `gather(*tasks)`). A
    task group is known by its value, never by its name: `async with
    asyncio.TaskGroup() as tg`, `tg = asyncio.TaskGroup()`, or a parameter
    annotated `asyncio.TaskGroup`; a loop by `asyncio.get_running_loop()`.
    Reported at the call, also when it goes through plain helpers of the
    analyzed code, with the chain: a helper run in another task that calls
    such a step (`gather(*[process(x) ...])`), or a helper that runs such a
    step in another task itself.

    "Without a replay identity" is MAF's own test (1.20+): no `replay_key`,
    and an argument that cannot be fingerprinted (STP010's test), a closure
    (STP012), a non-durable default (STP013), or made during a run.

    Silent: on 1.19 and older, which have no replay identity to check; in
    plain functions no workflow or step body calls (tests and scripts call
    steps outside workflows, where they are plain coroutines);
    `asyncio.wait_for` (it runs the coroutine in the same task from Python
    3.12); coroutines not written as calls (`gather(*map(fetch, xs))`); a
    step returned by a factory (return values are not followed).

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

    ## References
    - MAF's `StepWrapper.__call__` and `RunContext._is_concurrent_execution`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    - https://github.com/microsoft/agent-framework/issues/9383
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
        spawns = analysis.service(Spawns)
        for item in analysis.decorated_in(module):
            for owner, call in analysis.calls_in(item):
                how = spawns.spawned_by(item.module, owner, call)
                target = analysis.call_target(item.module, owner, call)
                step = analysis.step_of(target)
                if how is not None and step is not None:
                    reason = analysis.call_order_reason(step)
                    if reason is not None:
                        subject = f"step '{step.display}' runs in another task ({how})"
                        yield _report(analysis, item.module, call, step, reason, subject)
                    continue
                if not walk.plain_function(target):
                    continue
                for reached in walk.reached(target):  # type: ignore[arg-type]
                    inner = analysis.step_of(analysis.call_target(reached.module, reached.owner, reached.call))
                    reason = analysis.call_order_reason(inner) if inner is not None else None
                    if inner is None or reason is None:
                        continue
                    path = " -> ".join([*(display(t) for t in reached.chain), inner.display])
                    helper = display(reached.chain[0])
                    if how is not None:
                        subject = f"'{helper}' runs in another task ({how}) and calls step '{inner.display}' ({path})"
                    else:
                        inner_how = spawns.spawned_by(reached.module, reached.owner, reached.call)
                        if inner_how is None:
                            continue
                        subject = f"'{helper}' runs step '{inner.display}' in another task ({inner_how}; {path})"
                    yield _report(analysis, item.module, call, inner, reason, subject)
                    break


class Spawns:
    """Which calls run their coroutine in another task, per function (memoized, shared by the walk)."""

    def __init__(self, analysis: Analysis):
        self.analysis = analysis
        self._stored: dict[tuple[str, str], dict[str, str]] = {}

    def spawned_by(self, module: ModuleSummary, owner: FunctionSummary, call: CallSite) -> str | None:
        """The spawner that runs this call's coroutine in another task, if one does.

        An awaited call runs here; an argument of a spawner (or an item of a
        comprehension that is one) runs there, and so does a call stored into a
        local that the function passes to a spawner (``tasks.append(c)``, ``gather(*tasks)``).
        """
        if call.awaited:
            return None
        if call.enclosing:
            how = self._spawner(module, owner, call.enclosing[0])
            if how is not None:
                return how
        return self._stored_names(module, owner).get(call.sink) if call.sink is not None else None

    def _spawner(self, module: ModuleSummary, owner: FunctionSummary, callee: Expr) -> str | None:
        name = spawner(self.analysis.call_name(module, owner, callee))
        return name.replace("()", "") if name is not None else None

    def _stored_names(self, module: ModuleSummary, owner: FunctionSummary) -> dict[str, str]:
        """Locals this function passes to a spawner (``gather(*tasks)``), with the spawner."""
        key = (module.path, owner.qualname)
        names = self._stored.get(key)
        if names is None:
            names = self._stored[key] = {}
            for call in owner.calls:
                how = self._spawner(module, owner, call.callee)
                if how is not None:
                    for name in call.arg_names:
                        names.setdefault(name, how)
        return names


def _report(
    analysis: Analysis, module: ModuleSummary, call: CallSite, step: Decorated, reason: str, subject: str
) -> Diagnostic:
    return analysis.diagnostic(
        module,
        call.span,
        ConcurrentUnkeyedStep,
        f"{subject}, but MAF cannot derive a replay identity for '{step.display}' ({reason}): inside a workflow "
        f"the call raises ValueError; add replay_key=... to '{step.display}' or pass fingerprintable arguments",
    )
