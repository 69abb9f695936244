"""The runtime shim tests install and uninstall the shim themselves."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import pytest

from steplint import runtime_shim


#: The rule-verdict truth tests install no shim: they run on every release with the functional API
#: (tests/test_runtime_matrix.py adds old releases for them alone).
#: tests/test_runtime_matrix.py's VERDICT_SUITES names the same files (issue 29's rules' truths among them).
VERDICT_TESTS = frozenset({
    "test_rule_verdicts.py", "test_duplicate_step_name.py", "test_unstable_step_name.py",
    "test_step_mutates_argument.py", "test_unstable_replay_key.py", "test_io_before_request_info.py",
    "test_io_in_workflow_body.py", "test_workflow_run_misuse.py", "test_workflow_without_input.py",
})


def _reason_to_skip(config: pytest.Config) -> str | None:
    if config.getoption("steplint_shim", default=None) is not None:
        # The session owns the shim; these tests compare MAF with and without it.
        return "runtime shim tests manage the shim themselves; run them without --steplint-shim"
    version = metadata.version("agent-framework-core")
    if version not in runtime_shim.TESTED_VERSIONS:
        return (
            f"agent-framework-core {version} is not in TESTED_VERSIONS, so install() refuses it; "
            f"tests/test_runtime_matrix.py runs this suite on every tested release"
        )
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _reason_to_skip(config)
    if reason is None:
        return
    here = Path(__file__).parent
    untested_release = "TESTED_VERSIONS" in reason
    for item in items:
        if here in item.path.parents and not (untested_release and item.path.name in VERDICT_TESTS):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def _maf_unpatched_around_each_test() -> object:
    runtime_shim.uninstall()
    yield
    runtime_shim.uninstall()
