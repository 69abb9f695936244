"""STP044's ground truth on the installed agent-framework-core: a workflow with no input can never start.

``EXAMPLE`` is the rule's doc example, read from its docstring (tests/test_doc_example_truths.py checks
the linter reports it). Run with no message,
``run()`` refuses; run with one, the body refuses to receive it. Needs only
agent-framework-core and pytest.
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path
from typing import Any

import agent_framework as maf
import fixture_truths
import pytest
from shim_support import MAF_VERSION_TUPLE

pytestmark = pytest.mark.filterwarnings("ignore")

EXAMPLE = fixture_truths.rule_example("STP044")  # the rule docstring's ## Example, read, not copied


def _new_instance() -> Any:
    namespace: dict[str, Any] = {"__name__": "stp044_example"}
    exec(compile(EXAMPLE, "stp044_example.py", "exec"), namespace)
    nightly = namespace["nightly"]
    return nightly.build() if hasattr(nightly, "build") else nightly


def test_run_without_a_message_raises():
    with pytest.raises(ValueError, match="Must provide at least one of"):
        asyncio.run(_new_instance().run())


def test_run_with_a_message_raises():
    with pytest.raises(ValueError, match="no non-RunContext parameter to receive a message"):
        asyncio.run(_new_instance().run("go"))


KEYWORD_ONLY_INPUT = (1, 23, 0)  # as steplint.core.framework_versions says
KEYWORD_ONLY = fixture_truths.FIXTURES / "stp044_keyword_only.py"


def _verdicts(path: Path) -> dict[int, list[str]]:
    """Each workflow of the fixture at *path*, by the line of the def it is made of: how a run with a message and
    one without end."""
    module = fixture_truths.load(path, path.stem)
    defs = {node.name: node.lineno for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.AsyncFunctionDef)}
    verdicts = {}
    for value in vars(module).values():
        if isinstance(value, maf.StepWrapper) or not hasattr(value, "_func"):
            continue
        runnable = value.build() if hasattr(value, "build") else value
        outcomes = []
        for arguments in (("go",), ()):
            try:
                asyncio.run(runnable.run(*arguments))
                outcomes.append("ran")
            except (ValueError, TypeError) as exc:
                outcomes.append(type(exc).__name__)
        verdicts[defs[value._func.__name__]] = outcomes
    return verdicts


def test_the_fixtures_reported_workflows_never_start_and_its_near_misses_run():
    """Every workflow of fixtures/stp044_workflow_without_input.py (reported on every release): those reported (at
    the def of the function they make a workflow of) refuse a run with a message and one without; the near misses
    run with a message."""
    verdicts = _verdicts(fixture_truths.STP044)
    reported = fixture_truths.expected_lines(fixture_truths.STP044, "STP044")
    assert {line for line, outcomes in verdicts.items() if outcomes == ["ValueError", "ValueError"]} == reported
    assert all(outcomes[0] == "ran" for line, outcomes in verdicts.items() if line not in reported), verdicts


def test_a_keyword_only_message_or_context_fails_before_1_23_and_runs_from_it():
    """fixtures/stp044_keyword_only.py (reported for 1.22, silent from 1.23): before 1.23 every run of a reported
    workflow with a message raises TypeError, from 1.23 it runs; the near misses run on every release."""
    verdicts = _verdicts(KEYWORD_ONLY)
    reported = fixture_truths.expected_lines(KEYWORD_ONLY, "STP044")
    assert set(verdicts) >= reported and len(verdicts) > len(reported), verdicts
    failing = {line for line, outcomes in verdicts.items() if outcomes[0] != "ran"}
    assert failing == (set() if MAF_VERSION_TUPLE >= KEYWORD_ONLY_INPUT else reported), verdicts
    assert {verdicts[line][0] for line in failing} <= {"TypeError"}, verdicts
