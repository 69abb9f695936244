from __future__ import annotations

from typing import Iterator

from steplint.analysis.checkpoint_storages import PICKLING, CheckpointStorages
from steplint.analysis.checkpoint_types import CheckpointTypeJudge, allowed_entries
from steplint.analysis.program import Analysis, Decorated, maf_name
from steplint.analysis.values import InstanceValue
from steplint.core.diagnostics import Diagnostic
from steplint.core.framework_versions import LOUD_CHECKPOINT_FAILURE, REGISTER_CHECKPOINT_TYPE, Version, short_version
from steplint.core.summary import display_qualname, Const, Display, ModuleSummary, Ref, iter_calls
from steplint.rules.base import BROKEN, Rule


class UnrestorableResult(Rule):
    """
    ## What it does
    Finds a step whose result a `FileCheckpointStorage` checkpoint cannot
    restore, where a workflow that runs the step can be checkpointed to such
    a storage: its return annotation (or, without one, the value its body
    returns) is a class outside MAF's checkpoint allowlist (an instance of
    your own class: a pydantic model, a dataclass, a plain class; or an
    outside class such as `pathlib.Path`), and the code registers it neither
    with `agent_framework.register_checkpoint_type(...)` nor with
    `allowed_checkpoint_types=` on a storage. Reported at the `def`, on every
    release, with what the target release does.

    The allowlist is Python's builtin value types, `datetime`, `uuid.UUID`,
    `decimal.Decimal`, `collections.OrderedDict/defaultdict/deque/Counter`,
    and anything from `agent_framework` or `openai.types`; a `TypedDict` is
    a dict, and fine. Before 1.20 a checkpoint stores every `dict` and `list`
    as JSON, a subclass too (it comes back as a plain `dict`/`list`), so a
    class deriving from `dict` or `list` is reported from 1.20 only, where
    MAF pickles it.

    The storage is looked for in the run's files whose imports can load the
    step's module (a file that spells its name, or the name of a file that
    does, and so on): `wf.build(checkpoint_storage=...)`,
    `run(..., checkpoint_storage=...)` on the workflow, on what `build` made
    or on its agent, `@workflow(checkpoint_storage=...)` (1.2-1.17) and
    `FunctionalWorkflow(f, checkpoint_storage=...)` (spelled so), followed
    through names, imports and assignments. A storage pickles when
    it is a `FileCheckpointStorage` (or derives from it) or a class of yours
    whose methods call MAF's `encode_checkpoint_value`/`decode_checkpoint_value`
    or make a `FileCheckpointStorage`. `InMemoryCheckpointStorage` and a class
    of yours that keeps the objects as they are do not pickle: a step only
    such workflows reach is not reported, nor one whose workflows are never
    given a storage in the analyzed code.

    Known limits: a storage that comes from outside the analyzed code (a
    library's factory, a parameter no analyzed code fills, a file not among
    the linted ones) is unknown, and an unknown is never a finding; a storage
    given to something that is not visibly a workflow or what its `build`
    made (a workflow passed through a parameter) is not attributed to any
    workflow; a `FunctionalWorkflow` imported under another name is not
    read for its storage; a chain of imports through a module outside the linted files (an installed
    package that imports your step's module) is not followed; a file linted
    alone (flake8's plugin, an editor, pre-commit's changed files) sees only
    the storages given in the files linted with it.

    ## Why is this bad?
    MAF pickles the step's result into the checkpoint and unpickles it
    through the allowlist. On 1.2 to 1.18, `FileCheckpointStorage` writes the
    checkpoint, then fails to read it back: `list_checkpoints` skips it and
    only a log line says why, so a resume falls back to an older checkpoint
    or starts over and runs every step again. On 1.19 and newer the run
    raises `WorkflowCheckpointException` at the first checkpoint after the
    step, once its side effects are done. `InMemoryCheckpointStorage` keeps
    the objects and accepts them on every release, so tests pass while
    production fails. `register_checkpoint_type` exists from 1.15 on; before
    that, `allowed_checkpoint_types=["module:Class"]` on the storage is the fix.

    ## Example
    ```python
    from agent_framework import FileCheckpointStorage, step, workflow
    from pydantic import BaseModel


    class Report(BaseModel):
        text: str


    @step
    async def summarize(text: str) -> Report:
        return Report(text=text)


    @workflow
    async def pipeline(text: str) -> str:
        return (await summarize(text)).text


    async def main() -> None:
        await pipeline.build(checkpoint_storage=FileCheckpointStorage("checkpoints")).run("hi")
    ```

    ## Use instead
    Register the class (or return fingerprint-friendly data):
    ```python
    from agent_framework import FileCheckpointStorage, register_checkpoint_type, step, workflow
    from pydantic import BaseModel


    class Report(BaseModel):
        text: str


    register_checkpoint_type(Report)


    @step
    async def summarize(text: str) -> Report:
        return Report(text=text)


    @workflow
    async def pipeline(text: str) -> str:
        return (await summarize(text)).text


    async def main() -> None:
        await pipeline.build(checkpoint_storage=FileCheckpointStorage("checkpoints")).run("hi")
    ```

    ## References
    - MAF's checkpoint allowlist, `_BUILTIN_ALLOWED_TYPE_KEYS`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_checkpoint_encoding.py
    """

    code = "STP050"
    name = "unrestorable-step-result"
    summary = "a step returns a class the file checkpoint storage of its workflow cannot restore"
    points_at = "the `def`, never at the decorator line"
    version_dependent = True
    family = BROKEN
    INVALID = (
        """
# fixture: target-version=1.18
from dataclasses import dataclass
from agent_framework import FileCheckpointStorage, step, workflow

@dataclass
class Row:
    id: int

@step
async def load(id: int) -> list[Row]:  # expect: STP050
    return [Row(id)]

@workflow
async def rows(id: int) -> int:
    return len(await load(id))

STORAGE = FileCheckpointStorage("checkpoints")
INSTANCE = rows.build(checkpoint_storage=STORAGE)
""",
    )
    VALID = (
        """
# fixture: target-version=1.18
from dataclasses import dataclass
from typing import TypedDict
from agent_framework import InMemoryCheckpointStorage, step, workflow

class Row(TypedDict):
    id: int

@step
async def load(id: int) -> list[Row]:
    return [{"id": id}]

@dataclass
class Kept:
    id: int

@step
async def keep(id: int) -> Kept:
    return Kept(id)

@workflow
async def rows(id: int) -> int:
    return len(await load(id)) + (await keep(id)).id

INSTANCE = rows.build(checkpoint_storage=InMemoryCheckpointStorage())
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        judge = analysis.service(CheckpointTypeJudge)
        storages = analysis.service(CheckpointStorages)
        registered: set[str] | None = None
        for step in analysis.steps_in(module):
            body = step.body
            if body is None or step.kind != "step":
                continue
            blocked = _blocked(analysis, judge, step)
            named = judge.allowed_name if body.returns is not None else None  # what that answer was
            if blocked is None or PICKLING not in storages.storages_reaching(module, step.key):
                continue
            if registered is None:  # read once, and only for a module whose steps return such a class
                registered = _registered(analysis, module)
                if registered is None:
                    return  # allowed types given as something the linter cannot read: assume they cover it
            if blocked.rsplit(".", 1)[-1] in registered:
                continue
            allowed = named if body.returns is not None else _made_name(analysis, step, blocked)
            yield analysis.diagnostic(step.module, step.anchor, UnrestorableResult,
                                      _message(step.display, blocked, analysis.target_version, allowed))


def _made_name(analysis: Analysis, step: Decorated, blocked: str) -> tuple[str, str | None] | None:
    """How the storage names the class a body without annotation was seen to return (``_blocked``)."""
    root = analysis.flow(step.module).roots.get((step.module.path, step.body.qualname)) if step.body else None
    for value in root.returns if root else ():
        if isinstance(value, InstanceValue) and display_qualname(value.cls.qualname) == blocked:
            module = analysis.engine.modules_by_path.get(value.cls.path)
            if module is not None:
                return allowed_entries(module, value.cls.qualname)
    return None


def _message(step: str, blocked: str, target: Version, allowed: tuple[str, str | None] | None = None) -> str:
    """What the target release does with the checkpoint, and the fix it offers."""
    name = blocked.rsplit(".", 1)[-1]
    imported, script = allowed if allowed else (f"<module>:{name}", None)
    listed = f'"{imported}"'
    shown = short_version(target)
    if target >= LOUD_CHECKPOINT_FAILURE:
        story = ("the run raises WorkflowCheckpointException at the first checkpoint after the step, once its "
                 "side effects are done")
    else:
        story = ("the checkpoint is written but never listed or loaded (only a log line says why), so a resume "
                 "falls back to an older checkpoint or starts over and runs the steps again")
    if target >= REGISTER_CHECKPOINT_TYPE:
        fix = (f"register the class with agent_framework.register_checkpoint_type({name}) or pass "
               f"allowed_checkpoint_types=[{listed}] to the storage")
    else:
        fix = f"pass allowed_checkpoint_types=[{listed}] to the storage"
    if script:
        fix += f' (["{script}"] where the file runs as a script)'
    return (f"the result of step '{step}' is or holds a {blocked}, which a workflow that reaches the step "
            "checkpoints to a FileCheckpointStorage "
            f"that cannot restore it: on agent-framework-core {shown} {story}; {fix}")


def _blocked(analysis: Analysis, judge: CheckpointTypeJudge, step: Decorated) -> str | None:
    body = step.body
    assert body is not None
    scope = analysis.index.function(step.module, body.parent)
    if body.returns is not None:
        return judge.blocked(step.module, scope, body.returns)
    # No annotation: what the body returns, where the analysis follows it.
    root = analysis.flow(step.module).roots.get((step.module.path, body.qualname))
    made = sorted({v.cls.qualname for v in (root.returns if root else ()) if isinstance(v, InstanceValue)})
    return display_qualname(made[0]) if made else None


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
