"""Issue 29's rules report their doc examples, which their tests under tests/runtime run on every release.

Each runtime test holds its rule's doc example as ``EXAMPLE``; here the doc must
say the same, and the linter must report it where the runtime test shows MAF fails.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_samples import steplint

from steplint.api import lint_source
from steplint.config.settings import Settings
from steplint.rules.stp014_duplicate_step_name import WRAPPER_CHECK_RELEASE, DuplicateStepName
from steplint.rules.stp031_io_in_workflow_body import IoInWorkflowBody
from steplint.rules.stp033_io_before_request_info import IoBeforeRequestInfo
from steplint.rules.stp032_unstable_replay_key import REPLAY_KEY_RELEASE, UnstableReplayKey
from steplint.rules.stp015_unstable_step_name import UnstableStepName
from steplint.rules.stp051_step_mutates_argument import StepMutatesArgument
from steplint.rules.stp043_workflow_run_misuse import DEFINITION_RELEASE, WorkflowRunMisuse
from steplint.rules.stp044_workflow_without_input import WorkflowWithoutInput

RUNTIME = Path(__file__).resolve().parent / "runtime"

# rule, its runtime test, the line of the example it must be reported on (the doc's ``# fixture:`` target, if any)
CASES = {
    "duplicate-step-name": (DuplicateStepName, "test_duplicate_step_name.py",
                            "async def lookup(key: str) -> list[str]:"),
    "unstable-step-name": (UnstableStepName, "test_unstable_step_name.py",
                           'charge = step(name=f"charge-{uuid.uuid4().hex[:8]}")(_charge)'),
    "io-in-workflow-body": (IoInWorkflowBody, "test_io_in_workflow_body.py",
                            'requests.post("https://example.com/audit", json={"summary": summary})'),
    "unstable-replay-key": (UnstableReplayKey, "test_unstable_replay_key.py",
                            '@step(replay_key=lambda order_id: f"{order_id}:{time.time_ns()}")'),
    "io-before-request-info": (IoBeforeRequestInfo, "test_io_before_request_info.py",
                               'requests.post("https://example.com/notify", json={"draft": draft})'),
    "step-mutates-argument": (StepMutatesArgument, "test_step_mutates_argument.py", "await enrich(doc)"),
    "workflow-run-misuse": (WorkflowRunMisuse, "test_workflow_run_misuse.py", 'result = await pipeline.run("hi")'),
    "workflow-without-input": (WorkflowWithoutInput, "test_workflow_without_input.py",
                               "async def nightly(ctx: RunContext) -> str:"),
}


def doc_example(rule: type) -> str:
    example = re.search(r"## Example\n```python\n(?:# fixture: target-version=\S+\n)?(.*?)```", rule.doc(), re.S)
    assert example is not None
    return example.group(1)


def runtime_example(file: str) -> str:
    """The example the runtime test runs: its rule's docstring example where it reads it, else its copy."""
    text = (RUNTIME / file).read_text()
    read = re.search(r'EXAMPLE = fixture_truths\.rule_example\("(STP\d+)"\)', text)
    if read:
        (rule,) = [rule for rule, runtime_file, _ in CASES.values() if runtime_file == file]
        assert rule.code == read.group(1), f"{file} reads {read.group(1)}'s example"
        return doc_example(rule)
    return text.split("EXAMPLE = '''", 1)[1].split("'''", 1)[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_runtime_test_runs_the_doc_example(case):
    rule, file, _ = CASES[case]
    assert doc_example(rule).strip() == runtime_example(file).strip()


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_doc_example_is_reported_where_maf_fails(tmp_path, case):
    rule, file, line = CASES[case]
    example = runtime_example(file)
    header = re.search(r"## Example\n```python\n# fixture: target-version=(\S+)\n", rule.doc())
    target = tuple(int(part) for part in header.group(1).split(".")) + (0,) if header else None
    settings = Settings(project_root=tmp_path, select=(rule.code,), target_version=target)
    result = lint_source(example.encode(), str(tmp_path / "example.py"), settings)
    assert [example.splitlines()[d.line - 1].strip() for d in result.diagnostics] == [line]


@pytest.mark.parametrize(("file", "constant", "value"), [
    ("test_workflow_run_misuse.py", "DEFINITION_RELEASE", DEFINITION_RELEASE),
    ("test_duplicate_step_name.py", "WRAPPER_CHECK_RELEASE", WRAPPER_CHECK_RELEASE),
    ("test_unstable_replay_key.py", "REPLAY_KEY_RELEASE", REPLAY_KEY_RELEASE),
])
def test_the_runtime_tests_use_the_rules_release_boundaries(file, constant, value):
    assert f"{constant} = {value!r}" in (RUNTIME / file).read_text()


def test_io_functions_replaces_the_library_list(tmp_path):
    example = runtime_example("test_io_in_workflow_body.py")
    settings = Settings(project_root=tmp_path, select=(IoInWorkflowBody.code,), io_functions=("mydb.*",))
    assert lint_source(example.encode(), str(tmp_path / "example.py"), settings).diagnostics == []


def test_io_functions_is_read_from_tool_steplint(tmp_path):
    from steplint.config.settings import ConfigError, settings_from_table

    config = tmp_path / "pyproject.toml"
    assert settings_from_table({"io-functions": ["mydb.*"]}, config).io_functions == ("mydb.*",)
    assert Settings().io_functions is None
    with pytest.raises(ConfigError, match="'io-functions' must be a list of strings"):
        settings_from_table({"io-functions": [1]}, config)


def test_a_keyword_only_workflow_input_is_reported_before_1_23_only(tmp_path):
    """STP044's release story (tests/runtime/test_workflow_without_input.py shows it): off from 1.23, named before."""
    source = (Path(__file__).resolve().parents[1] / "fixtures" / "stp044_keyword_only.py").read_bytes()
    found = {}
    for target in ((1, 23, 0), (1, 22, 0), (1, 2, 0)):
        settings = Settings(project_root=tmp_path, select=(WorkflowWithoutInput.code,), target_version=target)
        found[target] = [d.line for d in lint_source(source, str(tmp_path / "flows.py"), settings).diagnostics]
    assert found[(1, 23, 0)] == [] and found[(1, 22, 0)] == found[(1, 2, 0)] and len(found[(1, 22, 0)]) == 4


def test_run_with_responses_on_a_definition_is_told_to_answer_on_the_workflow_that_paused(tmp_path):
    """``definition.run(responses=...)``: ``definition.build().run(responses=...)`` would be the third story (a new
    workflow has no pending request), so the message asks for the built workflow whose run paused, and no fix is
    offered; a plain ``run("hi")`` keeps its ``build()`` advice and fix."""
    source = b'''from agent_framework import workflow


@workflow
async def review(text: str) -> str:
    return text


async def answer(responses: dict) -> None:
    await review.run(responses=responses)
    await review.run("hi")
'''
    settings = Settings(project_root=tmp_path, select=(WorkflowRunMisuse.code,), target_version=DEFINITION_RELEASE)
    found = sorted(lint_source(source, str(tmp_path / "flows.py"), settings).diagnostics, key=lambda d: d.line)
    assert [d.line for d in found] == [10, 11]
    assert "answer with 'flow.run(responses=...)' on the same built workflow" in found[0].message
    assert found[0].fix is None
    assert "call 'review.build().run(...)'" in found[1].message and found[1].fix is not None


def test_replay_key_on_an_old_release_names_when_step_raises(tmp_path):
    """STP041: ``step(replay_key=...)`` raises TypeError where the code that makes the step runs: the module's
    import, or a call of the function that makes it (a real application builds its steps in ``build_workflow()``)."""
    from steplint.rules.stp041_replay_key_unsupported import ReplayKeyUnsupported

    source = b'''from agent_framework import step


@step(replay_key=lambda x: x)
async def top(x: str) -> str:
    return x


def build_workflow():
    @step(replay_key=lambda x: x)
    async def inner(x: str) -> str:
        return x

    return inner
'''
    settings = Settings(project_root=tmp_path, select=(ReplayKeyUnsupported.code,), target_version=(1, 19, 0))
    found = sorted(lint_source(source, str(tmp_path / "flows.py"), settings).diagnostics, key=lambda d: d.line)
    assert [d.line for d in found] == [4, 10]
    assert "raises TypeError at import" in found[0].message
    assert "raises TypeError when 'build_workflow' runs" in found[1].message


#: The entry STP050 names for fixtures/stp050_storage_chain's Receipt; tests/runtime/test_rule_verdicts.py checks
#: that MAF keys the class so and restores it with it.
STORAGE_CHAIN_RECEIPT = "app.jobs:Receipt"


def test_stp050_names_the_class_as_the_storage_must_allow_it():
    """The fix names the class of the analyzed code as MAF keys it (``module:qualname``), not ``<module>:Receipt``."""
    done = steplint("--isolated", "--no-cache", "--select", "STP050", "--format", "json", ".",
                    cwd=Path(__file__).parents[1] / "fixtures" / "stp050_storage_chain")
    named = {re.search(r'allowed_checkpoint_types=\["([^"]+)"\]', d["message"])[1] for d in json.loads(done.stdout)}
    assert named == {STORAGE_CHAIN_RECEIPT, "app.shop.orders:Order"}


def test_a_set_ordered_loop_is_reported_only_for_steps_keyed_by_call_order():
    """fixtures/stp030_hash_order.py (target 1.19: every step keyed by call order) on 1.26: a ``str`` is
    fingerprinted, so only the pydantic-model loops stay (tests/runtime/test_hash_ordered_loop.py traces both)."""
    from expectations import reported_for, settings_for

    fixture = Path(__file__).parents[1] / "fixtures" / "stp030_hash_order.py"
    lines = {line for _, line, code in reported_for(fixture, settings_for(fixture, target_version=(1, 26, 0)))
             if code == "STP030"}
    assert lines == {43, 50}


def test_stp050_names_the_scripts_key_too_where_the_module_runs_as_one(tmp_path):
    """A module with ``if __name__ == "__main__":``: run as a script its classes are ``__main__``'s (the runtime
    test in tests/runtime/test_rule_verdicts.py runs one)."""
    from steplint.rules.stp050_unrestorable_result import UnrestorableResult

    source = b'''import asyncio

from agent_framework import FileCheckpointStorage, step, workflow


class Receipt:
    def __init__(self, total: int) -> None:
        self.total = total


@step
async def charge(amount: int) -> Receipt:
    return Receipt(amount)


@workflow
async def billing(amount: int) -> int:
    return (await charge(amount)).total


if __name__ == "__main__":
    asyncio.run(billing.build(checkpoint_storage=FileCheckpointStorage("c")).run(3))
'''
    settings = Settings(project_root=tmp_path, select=(UnrestorableResult.code,))
    (found,) = lint_source(source, str(tmp_path / "jobs.py"), settings).diagnostics
    assert 'allowed_checkpoint_types=["jobs:Receipt"] to the storage (["__main__:Receipt"] where the file runs as a ' \
           "script)" in found.message


def test_a_change_to_an_earlier_steps_result_is_reported_from_1_20():
    """fixtures/stp051_cached_result.py (target 1.19: only the object the body built) on 1.26, where MAF caches a
    copy of each result: the change to ``plan``'s result is lost too (tests/runtime/test_step_mutates_argument.py)."""
    from expectations import reported_for, settings_for

    fixture = Path(__file__).parents[1] / "fixtures" / "stp051_cached_result.py"
    at = {version: {line for _, line, code in reported_for(fixture, settings_for(fixture, target_version=version))
                    if code == "STP051"} for version in ((1, 19, 0), (1, 26, 0))}
    assert at == {(1, 19, 0): {37}, (1, 26, 0): {29, 37}}
