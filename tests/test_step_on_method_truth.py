"""STP042 reports exactly the method forms that fail on the real framework.

The forms and their outcomes live in tests/runtime/test_step_on_method.py,
which runs them against every supported agent-framework-core release; here
the linter reads the same source and must agree with it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from steplint.config.settings import Settings
from steplint.api import lint_source

RUNTIME_TEST = Path(__file__).resolve().parent / "runtime" / "test_step_on_method.py"


def _runtime_module():
    spec = importlib.util.spec_from_file_location("step_on_method_truth", RUNTIME_TEST)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TRUTH = _runtime_module()


@pytest.mark.parametrize("form", sorted(TRUTH.FORMS))
def test_stp042_fires_exactly_on_the_forms_that_fail(tmp_path, form):
    outcome = TRUTH.outcome_of(form)
    code = "from agent_framework import step\n" + TRUTH.source_of(form)
    path = tmp_path / "holder.py"
    result = lint_source(code.encode(), str(path), Settings(project_root=tmp_path, select=("STP042",)))
    reported = [d for d in result.diagnostics if d.code == "STP042"]
    assert bool(reported) == (outcome != TRUTH.WORKS), [d.message for d in reported]
    for diagnostic in reported:
        assert "TypeError" in diagnostic.message
        assert code.splitlines()[diagnostic.line - 1].lstrip().startswith("async def run")
