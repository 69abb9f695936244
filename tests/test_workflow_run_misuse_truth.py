"""STP043 reports its doc example, which tests/runtime/test_workflow_run_misuse.py runs on every release."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from steplint.api import lint_source
from steplint.config.settings import Settings
from steplint.rules.stp043_workflow_run_misuse import DEFINITION_RELEASE, WorkflowRunMisuse

RUNTIME_TEST = Path(__file__).resolve().parent / "runtime" / "test_workflow_run_misuse.py"


def _runtime_module():
    spec = importlib.util.spec_from_file_location("workflow_run_misuse_truth", RUNTIME_TEST)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_runtime_test_runs_the_doc_example_with_the_rules_release_boundary(monkeypatch):
    monkeypatch.syspath_prepend(str(RUNTIME_TEST.parent))
    truth = _runtime_module()
    example = re.search(r"## Example\n```python\n(.*?)```", WorkflowRunMisuse.doc(), re.S)
    assert example is not None and example.group(1).strip() == truth.EXAMPLE.strip()
    assert truth.DEFINITION_RELEASE == DEFINITION_RELEASE


def test_the_doc_example_is_reported_at_the_run_call(tmp_path):
    truth_source = RUNTIME_TEST.read_text()
    example = truth_source.split("EXAMPLE = '''", 1)[1].split("'''", 1)[0]
    result = lint_source(example.encode(), str(tmp_path / "example.py"),
                         Settings(project_root=tmp_path, select=(WorkflowRunMisuse.code,)))
    lines = [example.splitlines()[d.line - 1].strip() for d in result.diagnostics]
    assert lines == ['result = await pipeline.run("hi")']
