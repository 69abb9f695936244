from __future__ import annotations

from typing import Iterator

from steplint.analysis.checkpoint_types import CheckpointTypeJudge
from steplint.analysis.program import Analysis, Decorated, maf_name
from steplint.analysis.values import InstanceValue
from steplint.core.diagnostics import Diagnostic
from steplint.core.framework_versions import REGISTER_CHECKPOINT_TYPE, Version, short_version
from steplint.core.summary import Const, Display, ModuleSummary, Ref, iter_calls
from steplint.rules.base import BROKEN, Rule

#: The first release whose FileCheckpointStorage raises instead of skipping a checkpoint it cannot load.
LOUD_FROM: Version = (1, 19, 0)


class UnrestorableResult(Rule):
    """
    ## What it does
    Finds a step whose result a `FileCheckpointStorage` checkpoint cannot
    restore, when the target version is 1.18: its return annotation (or,
    without one, the value its body returns) is a class outside MAF's
    checkpoint allowlist (an instance of your own class: a pydantic model, a
    dataclass, a plain class; or an outside class such as `pathlib.Path`),
    and the code registers it neither with
    `agent_framework.register_checkpoint_type(...)` nor with
    `allowed_checkpoint_types=` on a storage. Reported at the `def`.

    The allowlist is Python's builtin value types, `datetime`, `uuid.UUID`,
    `decimal.Decimal`, `collections.OrderedDict/defaultdict/deque`, and
    anything from `agent_framework` or `openai.types`; a `TypedDict` is a
    dict, and fine. Silent on 1.19 and newer, which raise
    `WorkflowCheckpointException` at the first checkpoint instead.

    ## Why is this bad?
    MAF pickles the step's result into the checkpoint and unpickles it
    through the allowlist. On 1.18, `FileCheckpointStorage` writes the
    checkpoint, then fails to read it back: `list_checkpoints` skips it and
    only a log line says why. The run looks fine, but there is no checkpoint
    to resume from, so a crash starts the workflow over and every step runs
    again (checked on 1.18.0; 1.19 to 1.23 raise instead).

    ## Example
    ```python
    # fixture: target-version=1.18
    from agent_framework import step
    from pydantic import BaseModel


    class Report(BaseModel):
        text: str


    @step
    async def summarize(text: str) -> Report:
        return Report(text=text)
    ```

    ## Use instead
    Register the class (or return fingerprint-friendly data):
    ```python
    # fixture: target-version=1.18
    from agent_framework import register_checkpoint_type, step
    from pydantic import BaseModel


    class Report(BaseModel):
        text: str


    register_checkpoint_type(Report)


    @step
    async def summarize(text: str) -> Report:
        return Report(text=text)
    ```

    ## References
    - MAF's checkpoint allowlist, `_BUILTIN_ALLOWED_TYPE_KEYS`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_checkpoint_encoding.py
    """

    code = "STP050"
    name = "unrestorable-step-result"
    summary = "a step returns a class a file checkpoint cannot restore, and 1.18 skips such checkpoints silently"
    points_at = "the `def`, never at the decorator line"
    version_dependent = True
    family = BROKEN
    INVALID = (
        """
# fixture: target-version=1.18
from dataclasses import dataclass
from agent_framework import step

@dataclass
class Row:
    id: int

@step
async def load(id: int) -> list[Row]:  # expect: STP050
    return [Row(id)]
""",
    )
    VALID = (
        """
# fixture: target-version=1.18
from typing import TypedDict
from agent_framework import step

class Row(TypedDict):
    id: int

@step
async def load(id: int) -> list[Row]:
    return [{"id": id}]
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        if analysis.target_version >= LOUD_FROM:
            return
        judge = analysis.service(CheckpointTypeJudge)
        registered: set[str] | None = None
        for step in analysis.steps_in(module):
            body = step.body
            if body is None or step.kind != "step":
                continue
            blocked = _blocked(analysis, judge, step)
            if blocked is None:
                continue
            if registered is None:  # read once, and only for a module whose steps return such a class
                registered = _registered(analysis, module)
                if registered is None:
                    return  # allowed types given as something the linter cannot read: assume they cover it
            if blocked.rsplit(".", 1)[-1] in registered:
                continue
            yield analysis.diagnostic(
                step.module,
                step.anchor,
                UnrestorableResult,
                f"step '{step.display}' returns {blocked}, which a FileCheckpointStorage checkpoint cannot restore: "
                f"on agent-framework-core {short_version(analysis.target_version)} the checkpoint is written but never listed or loaded (only a log line "
                f"says why), so a resume starts over and runs every step again; {_remedy(analysis, blocked)}",
            )


def _remedy(analysis: Analysis, blocked: str) -> str:
    if analysis.target_version < REGISTER_CHECKPOINT_TYPE:  # importing register_checkpoint_type fails there
        return "pass allowed_checkpoint_types=[...] to the storage (register_checkpoint_type arrived in 1.15)"
    return (f"register the class with agent_framework.register_checkpoint_type({blocked.rsplit('.', 1)[-1]}) or pass "
            "allowed_checkpoint_types=[...] to the storage")


def _blocked(analysis: Analysis, judge: CheckpointTypeJudge, step: Decorated) -> str | None:
    body = step.body
    assert body is not None
    scope = analysis.index.function(step.module, body.parent)
    if body.returns is not None:
        return judge.blocked(step.module, scope, body.returns)
    # No annotation: what the body returns, where the analysis follows it.
    root = analysis.flow(step.module).roots.get((step.module.path, body.qualname))
    made = sorted({v.cls.qualname for v in (root.returns if root else ()) if isinstance(v, InstanceValue)})
    return made[0].replace(".<locals>", "") if made else None


def _registered(analysis: Analysis, module: ModuleSummary) -> set[str] | None:
    """Names of the classes the module registers; None when it passes allowed types the linter cannot read."""
    names: set[str] = set()
    for function in module.functions:
        for call in iter_calls(function.body):
            target = analysis.index.resolve(module, None, call.func) if isinstance(call.func, Ref) else None
            if maf_name(target) == "register_checkpoint_type":
                names.update(arg.dotted.rsplit(".", 1)[-1] for arg in call.args if isinstance(arg, Ref))
            allowed = call.kwarg("allowed_checkpoint_types")
            if allowed is None:
                continue
            if not isinstance(allowed, Display) or any(not isinstance(i, Const) for i in allowed.items):
                return None
            names.update(str(item.value).rsplit(":", 1)[-1].rsplit(".", 1)[-1] for item in allowed.items)
    return names
