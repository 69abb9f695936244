from __future__ import annotations

from typing import Iterator

from steplint.analysis.checkpoint_shapes import KEYS_PREFIX, CheckpointShapeJudge
from steplint.analysis.checkpoint_storages import PICKLING, CheckpointStorages
from steplint.analysis.program import Analysis
from steplint.core.diagnostics import Diagnostic
from steplint.core.framework_versions import PICKLED_CONTAINER_SUBCLASSES, Version, short_version
from steplint.core.summary import ModuleSummary
from steplint.rules.base import BROKEN, Rule


class CheckpointChangesResult(Rule):
    """
    ## What it does
    Finds a step whose result a `FileCheckpointStorage` checkpoint gives
    back changed, where a workflow that runs the step can be checkpointed
    to such a storage: its return annotation is a `dict` whose keys are
    known not to be strings (`dict[int, str]`, keys of `tuple`, `bool`,
    `None`, `datetime`, `uuid.UUID`, an `Enum` that is not a `StrEnum`, a
    non-string `Literal`, a class of yours with no base from outside the
    analyzed code, such as a dataclass), also inside a `list` or a `dict`'s
    values; and,
    before 1.20, a `Counter`, `defaultdict`, `OrderedDict` or a class of
    yours deriving from `dict` or `list`. Reported at the `def`.

    The storage is found as STP050 finds it (a `FileCheckpointStorage`, a
    subclass, a storage of yours that encodes through MAF's checkpoint
    encoding). A step without a return annotation, a `Mapping`, a
    `TypeVar` or a key type the linter cannot resolve is not judged.

    ## Why is this bad?
    MAF's checkpoint encoding stores a plain `dict` as a JSON object and a
    plain `list` as a JSON array (everything else is pickled whole). JSON
    keys are strings, so a run resumed from the checkpoint gets
    `{"1": "a"}` where the live run got `{1: "a"}`: `result[1]` raises
    `KeyError`, `1 in result` is `False`, and the workflow goes on with
    other data, on every release. Before 1.20 MAF tests `isinstance(value,
    dict)`, so a `Counter` comes back a plain `dict` (no `most_common()`),
    a `defaultdict` loses its default (`KeyError` again); from 1.20 a
    subclass is pickled with its class. `InMemoryCheckpointStorage` keeps
    the objects as they are, so tests pass while a resumed production run
    does not.

    ## Example
    ```python
    from agent_framework import FileCheckpointStorage, step, workflow


    @step
    async def prices(sku: str) -> dict[int, float]:
        return {1: 9.5, 10: 8.0}


    @workflow
    async def quote(sku: str) -> float:
        return (await prices(sku))[10]


    async def main() -> None:
        await quote.build(checkpoint_storage=FileCheckpointStorage("checkpoints")).run("a")
    ```

    ## Use instead
    Key the dict by strings (or return its items as a list of pairs):
    ```python
    from agent_framework import FileCheckpointStorage, step, workflow


    @step
    async def prices(sku: str) -> dict[str, float]:
        return {"1": 9.5, "10": 8.0}


    @workflow
    async def quote(sku: str) -> float:
        return (await prices(sku))["10"]


    async def main() -> None:
        await quote.build(checkpoint_storage=FileCheckpointStorage("checkpoints")).run("a")
    ```

    ## References
    - MAF's checkpoint encoding, `_encode`: https://github.com/microsoft/agent-framework/blob/main/python/packages/core/agent_framework/_workflows/_checkpoint_encoding.py
    """

    code = "STP052"
    name = "checkpoint-changes-result"
    summary = "a step returns a dict whose keys, or a container whose class, its workflow's file checkpoint does not keep"
    points_at = "the `def`, never at the decorator line"
    version_dependent = True
    family = BROKEN
    INVALID = (
        """
from agent_framework import FileCheckpointStorage, step, workflow

@step
async def by_id(n: int) -> list[dict[int, str]]:  # expect: STP052
    return [{n: "a"}]

@workflow
async def rows(n: int) -> str:
    return (await by_id(n))[0][n]

INSTANCE = rows.build(checkpoint_storage=FileCheckpointStorage("checkpoints"))
""",
    )
    VALID = (
        """
from agent_framework import FileCheckpointStorage, InMemoryCheckpointStorage, step, workflow

@step
async def by_name(n: int) -> dict[str, tuple[int, int]]:
    return {"a": (n, n)}

@step
async def kept(n: int) -> dict[int, str]:
    return {n: "a"}

@workflow
async def rows(n: int) -> int:
    return len(await by_name(n))

@workflow
async def memory(n: int) -> str:
    return (await kept(n))[n]

FILED = rows.build(checkpoint_storage=FileCheckpointStorage("checkpoints"))
KEPT = memory.build(checkpoint_storage=InMemoryCheckpointStorage())
""",
    )

    def check(self, analysis: Analysis, module: ModuleSummary) -> Iterator[Diagnostic]:
        judge = analysis.service(CheckpointShapeJudge)
        storages = analysis.service(CheckpointStorages)
        for step in analysis.steps_in(module):
            body = step.body
            if body is None or step.kind != "step" or body.returns is None:
                continue
            changed = judge.changed(step.module, analysis.index.function(step.module, body.parent), body.returns)
            if changed is None or PICKLING not in storages.storages_reaching(module, step.key):
                continue
            yield analysis.diagnostic(step.module, step.anchor, CheckpointChangesResult,
                                      _message(step.display, changed, analysis.target_version))


def _message(step: str, changed: str, target: Version) -> str:
    where = f"step '{step}' returns a value that a workflow reaching it checkpoints to a FileCheckpointStorage"
    if changed.startswith(KEYS_PREFIX):
        key = changed[len(KEYS_PREFIX):]
        return (f"{where}, which stores a dict as JSON: a run resumed from the checkpoint gets the dict's {key} keys "
                f"back as strings, so looking one up by such a key raises KeyError; key the dict by str, or return "
                "its items as a list of pairs")
    return (f"{where}, which on agent-framework-core {short_version(target)} stores it as JSON: a run resumed from "
            f"the checkpoint gets {changed}, without its methods or default (from "
            f"{short_version(PICKLED_CONTAINER_SUBCLASSES)} MAF pickles it with its class); return a plain dict or "
            "list and rebuild the class after the call")
