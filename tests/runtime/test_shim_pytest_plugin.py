"""The pytest11 plugin: inert by default, installs the shim with --steplint-shim."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

# Release-independent option handling: run on the releases that bound the key epochs (test_runtime_matrix.py).
pytestmark = [pytest.mark.runtime, pytest.mark.deep]

NESTED_WORKFLOW = """
    import asyncio
    import sys

    import agent_framework as maf
    import pytest

    from steplint import runtime_shim


    @maf.step
    async def inner(label: str) -> str:
        return label.upper()


    @maf.step
    async def outer(label: str) -> str:
        return await inner(label)


    @maf.workflow(name="plugin-check")
    async def nested(label: str) -> str:
        return await outer(label)


    def run_nested():
        return asyncio.run(nested.build().run("x")).get_outputs()
"""

TESTS = {
    "inert": """
        def test_inert():
            assert runtime_shim.installed_mode() is None
            assert run_nested() == ["X"]
        """,
    "scoped": """
        def test_scoped():
            assert runtime_shim.installed_mode() == "scoped"
            assert run_nested() == ["X"]
        """,
    "flat": """
        def test_flat():
            assert runtime_shim.installed_mode() == "flat"
            with pytest.raises(runtime_shim.NestedStepError):
                run_nested()
        """,
}


def run_pytest(tmp_path: Path, test: str, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")  # keep the project's configuration out
    (tmp_path / "test_plugin_check.py").write_text(textwrap.dedent(NESTED_WORKFLOW) + textwrap.dedent(TESTS[test]))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *options, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )


def test_plugin_is_registered_under_pytest11() -> None:
    plugins = {entry.name: entry.value for entry in metadata.entry_points(group="pytest11")}
    assert plugins.get("steplint-shim") == "steplint.runtime_shim.pytest_plugin"


def test_plugin_is_inert_without_the_option(tmp_path: Path) -> None:
    completed = run_pytest(tmp_path, "inert")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "steplint runtime shim" not in completed.stdout


@pytest.mark.parametrize("mode", ["scoped", "flat"])
def test_option_installs_the_shim_for_the_session(tmp_path: Path, mode: str) -> None:
    completed = run_pytest(tmp_path, mode, f"--steplint-shim={mode}")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    default = {"flat": "error", "scoped": "rerun"}[mode]
    assert f"steplint runtime shim: installed, mode={mode}, on_replay_mismatch={default}" in completed.stdout


REORDERED = """
    import agent_framework as maf
    from pydantic import BaseModel

    class Job(BaseModel):
        label: str

    ORDER = ["a", "b", "c"]

    @maf.step
    async def work(job: Job) -> str:
        if ORDER == ["a", "b", "c"] and job.label == "c":
            raise RuntimeError("crash")
        return job.label.upper()

    @maf.workflow(name="reordered")
    async def reordered(_: str) -> list[str]:
        return [await work(Job(label=label)) for label in ORDER]

    def test_resume_in_another_order():
        storage = maf.InMemoryCheckpointStorage()
        with pytest.raises(RuntimeError):
            asyncio.run(reordered.build(checkpoint_storage=storage).run("go"))
        latest = max(asyncio.run(storage.list_checkpoints(workflow_name="reordered")),
                     key=lambda c: (c.iteration_count, c.timestamp))
        ORDER[:] = ["b", "a", "c"]
        result = asyncio.run(reordered.build(checkpoint_storage=storage).run(checkpoint_id=latest.checkpoint_id))
        print("OUTPUT", result.get_outputs())
"""


@pytest.mark.parametrize(
    ("policy", "outcome", "summary"),
    [
        ("rerun", "OUTPUT [['B', 'A', 'C']]", "0 verified, 2 mismatched (1 rerun, 1 moved to their own call)"),
        ("error", "ReplayMismatchError", "0 verified, 1 mismatched (0 rerun, 0 moved to their own call)"),
        ("off", "OUTPUT [['A', 'B', 'C']]", "0 verified, 0 mismatched"),
    ],
)
def test_replay_option_sets_the_policy_and_the_summary_reports_the_session(
    tmp_path: Path, policy: str, outcome: str, summary: str
) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_reordered.py").write_text(
        textwrap.dedent(NESTED_WORKFLOW) + textwrap.dedent(REORDERED)
    )
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-s", "--steplint-shim=scoped",
         f"--steplint-shim-replay={policy}", str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )
    assert outcome in completed.stdout, completed.stdout + completed.stderr
    assert f"steplint replay verification: {summary}" in completed.stdout
    assert completed.returncode == (1 if policy == "error" else 0)


MUTATING = """
    from pydantic import BaseModel


    class Doc(BaseModel):
        customer: str = ""


    @maf.step
    async def enrich(doc: Doc) -> str:  # a model: a call-order key, recorded on every release
        doc.customer = "ACME"
        return "enriched"


    @maf.workflow(name="mutating")
    async def mutating(_: str) -> str:
        return await enrich(Doc())


    def test_enrich():  # with a storage: a run no later run can resume records nothing
        storage = maf.InMemoryCheckpointStorage()
        print("OUTPUT", asyncio.run(mutating.build(checkpoint_storage=storage).run("go")).get_outputs())
"""


@pytest.mark.parametrize(("policy", "outcome"), [("error", "ArgumentMutatedError"), ("warn", "OUTPUT ['enriched']")])
def test_mutation_option_sets_the_argument_mutation_policy(tmp_path: Path, policy: str, outcome: str) -> None:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_mutating.py").write_text(textwrap.dedent(NESTED_WORKFLOW) + textwrap.dedent(MUTATING))
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-s", "--steplint-shim=scoped",
         f"--steplint-shim-mutation={policy}", str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False,
    )
    output = completed.stdout + completed.stderr
    assert f"on_argument_mutation={policy}" in output, output
    assert outcome in output, output
    assert ("ArgumentMutatedWarning" in output) == (policy == "warn"), output
    assert completed.returncode == (1 if policy == "error" else 0), output


def test_unknown_mode_is_a_usage_error(tmp_path: Path) -> None:
    completed = run_pytest(tmp_path, "inert", "--steplint-shim=nested")
    assert completed.returncode == 4
    assert "--steplint-shim" in completed.stderr


def test_plugin_module_imports_nothing_heavy() -> None:
    program = (
        "import sys\n"
        "import steplint.runtime_shim.pytest_plugin\n"
        "assert 'agent_framework' not in sys.modules\n"
    )
    completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
