from __future__ import annotations

from typing import Iterator

from steplint.analysis.graph_pins import PIN_DEFINITION
from steplint.analysis.program import Analysis, Decorated
from steplint.analysis.workflow_body import StepCall, steps_called
from steplint.core.diagnostics import ERROR, WARNING, Diagnostic
from steplint.core.framework_versions import FINGERPRINT_VERSION, Version, format_version
from steplint.core.summary import ModuleSummary, Ref
from steplint.rules.base import CALL_ORDER, Rule

# From 1.20.0 a restored run knows the step wrappers the workflow's code names (`FunctionalWorkflow._run_core`
# fills `RunContext._expected_step_wrapper_identities` from `_discover_workflow_dependencies`, which follows only
# global names, closures and containers, never a module's attributes), and a step whose cache key is missing
# raises "created by a different step definition" when a cached key has its name and occurrence but another,
# unexpected wrapper (`RunContext._has_incompatible_versioned_cache_entry`). MAF source:
# agent_framework/_workflows/_functional.py, 1.20.0 to 1.26.0.
WRAPPER_CHECK_RELEASE: Version = FINGERPRINT_VERSION


class DuplicateStepName(Rule):
    """
    ## What it does
    Finds a workflow that calls two different steps with the same step
    name, directly or through plain helpers: two functions with the same
    bare name in different modules (`orders.fetch`, `users.fetch`; the
    default name is the function's `__name__`), or two literal
    `name="fetch"`. Reported at the workflow's `def`, once per name; two
    workflows that each call one of them are not reported.

    It is an error on 1.20 and newer when MAF cannot see two of the steps
    from the workflow's code: every call of each is a module attribute
    (`orders.fetch(...)`), which MAF's dependency discovery does not
    follow (it follows global names, functions of any module among them,
    closures and containers). With one such step the resume fails only
    when it runs before the other, which is not reported. It is a
    warning when MAF keys both by call order: always before 1.20, and from
    1.20 when both fall back to it (an argument that cannot be
    fingerprinted, and no `replay_key=`). Silent otherwise.

    ## Why is this bad?
    Before 1.20 the cache keys are `name::index`, counted per name: the
    two functions share one counter (`fetch::0` is one's result,
    `fetch::1` the other's), so a resume that skips a call of one (a cached
    step that called it, a concurrent branch) hands the other function's
    cached result over, silently. From 1.20 the same holds for steps that
    fall back to call order. And from 1.20, when a checkpoint holds one's
    result and the resumed run calls the other for the first time, MAF
    refuses the resume with `ValueError` ("created by a different step
    definition") unless it found the cached one in the workflow's code: no
    code changed, and the run cannot go on.

    ## Example
    ```python
    # fixture: target-version=1.19
    from agent_framework import step, workflow


    @step(name="fetch")
    async def fetch_order(key: str) -> str:
        return f"order:{key}"


    @step(name="fetch")
    async def fetch_user(key: str) -> str:
        return f"user:{key}"


    @workflow
    async def lookup(key: str) -> list[str]:
        return [await fetch_order(key), await fetch_user(key)]
    ```

    ## Use instead
    Give each step its own name:
    ```python
    # fixture: target-version=1.19
    from agent_framework import step, workflow


    @step(name="fetch_order")
    async def fetch_order(key: str) -> str:
        return f"order:{key}"


    @step(name="fetch_user")
    async def fetch_user(key: str) -> str:
        return f"user:{key}"


    @workflow
    async def lookup(key: str) -> list[str]:
        return [await fetch_order(key), await fetch_user(key)]
    ```

    ## References
    - `StepWrapper.__call__`, `RunContext._has_incompatible_versioned_cache_entry` and `FunctionalWorkflow._discover_workflow_dependencies`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_functional.py
    """

    code = "STP014"
    name = "duplicate-step-name"
    summary = "a workflow calls two different steps with the same step name"
    points_at = "the workflow's `def`"
    version_dependent = True
    family = CALL_ORDER
    graph_pin = PIN_DEFINITION
    INVALID = (
        """
# fixture: target-version=1.19
from agent_framework import step, workflow

@step(name="fetch")
async def fetch_order(key: str) -> str:
    return key

@step(name="fetch")
async def fetch_user(key: str) -> str:
    return key

@workflow
async def lookup(key: str) -> list:  # expect: STP014
    return [await fetch_order(key), await fetch_user(key)]
""",
    )
    VALID = (
        """
# fixture: target-version=1.19
from agent_framework import step, workflow

@step(name="fetch")
async def fetch_order(key: str) -> str:
    return key

@step(name="fetch_user")
async def fetch_user(key: str) -> str:
    return key

@workflow
async def lookup(key: str) -> list:
    return [await fetch_order(key), await fetch_user(key), await fetch_order(key)]
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        for workflow in analysis.workflows_in(module):
            by_name: dict[str, dict[str, list[StepCall]]] = {}
            for call in steps_called(analysis, workflow):
                by_name.setdefault(call.step.maf_name, {}).setdefault(_definition(call.step), []).append(call)
            for name in sorted(by_name):
                if len(by_name[name]) > 1:
                    finding = self._judge(analysis, workflow, name, by_name[name])
                    if finding is not None:
                        yield finding

    def _judge(self, analysis: Analysis, workflow: Decorated, name: str,
               definitions: dict[str, list[StepCall]]) -> Diagnostic | None:
        steps = sorted((calls[0].step for calls in definitions.values()), key=_qualified)
        listed = ", ".join(f"'{_qualified(step)}'" for step in steps)
        head = f"workflow '{workflow.display}' calls {len(steps)} different steps named '{name}' ({listed})"
        version = format_version(analysis.target_version)
        unseen = [calls[0].step for calls in definitions.values() if not _seen_by_maf(analysis, calls)]
        if analysis.target_version >= WRAPPER_CHECK_RELEASE and len(unseen) > 1:
            message = (
                f"{head}, and MAF does not find {', '.join(repr(_qualified(step)) for step in unseen)} in the "
                f"workflow's code (they are called as module attributes): on agent-framework-core {version}, "
                "a resume that calls one for the "
                "first time while the checkpoint holds the other's result raises ValueError ('created by a different "
                "step definition'); give each a distinct name="
            )
            return analysis.diagnostic(workflow.module, workflow.anchor, DuplicateStepName, message, severity=ERROR)
        shared = [step for step in steps if analysis.falls_back_to_call_order(step)]
        if len(shared) < 2:
            return None
        message = (
            f"{head}, which MAF keys by one call-order counter on agent-framework-core {version} ('{name}::0', "
            f"'{name}::1'...): a resume that skips a call of one (a cached step that called it, a concurrent "
            "branch) hands the other's cached result over; give each a distinct name="
        )
        return analysis.diagnostic(workflow.module, workflow.anchor, DuplicateStepName, message, severity=WARNING)


def _definition(step: Decorated) -> str:
    """One function is one definition, however many values stand for it (``step`` imported with a fallback)."""
    return f"{step.module.path}:{step.body.qualname}" if step.body is not None else step.key


def _qualified(step: Decorated) -> str:
    return f"{step.module.module}.{step.display}"


def _seen_by_maf(analysis: Analysis, calls: list[StepCall]) -> bool:
    """Whether MAF's dependency discovery can find the step. It follows global names (functions of any module
    among them), closures and containers, never a module's attributes: unless every call of the step is a module
    attribute (``orders.fetch(...)``), assume it can (no finding from an unknown)."""
    return any(_maybe_seen(analysis, call) for call in calls)


def _maybe_seen(analysis: Analysis, call: StepCall) -> bool:
    site = next((c for c in call.unit.summary.calls
                 if (c.span.line, c.span.col, c.span.end_line, c.span.end_col) == call.site), None)
    if site is None or not isinstance(site.callee, Ref) or "." not in site.callee.dotted:
        return True
    head = site.callee.dotted.split(".", 1)[0]
    scope = None if call.unit.summary.qualname == "<module>" else call.unit.summary
    target = analysis.index.lookup(call.unit.module, scope, head)
    return target is None or target.kind != "module"
