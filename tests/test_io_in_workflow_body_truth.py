"""STP031 reports its doc example, which tests/runtime/test_io_in_workflow_body.py runs on every release."""

from __future__ import annotations

import re
from pathlib import Path

from steplint.api import lint_source
from steplint.config.settings import Settings
from steplint.rules.stp031_io_in_workflow_body import IoInWorkflowBody

RUNTIME_TEST = Path(__file__).resolve().parent / "runtime" / "test_io_in_workflow_body.py"


def _runtime_example() -> str:
    return RUNTIME_TEST.read_text().split("EXAMPLE = '''", 1)[1].split("'''", 1)[0]


def test_the_runtime_test_runs_the_doc_example():
    example = re.search(r"## Example\n```python\n(.*?)```", IoInWorkflowBody.doc(), re.S)
    assert example is not None and example.group(1).strip() == _runtime_example().strip()


def test_the_doc_example_is_reported_at_the_request(tmp_path):
    example = _runtime_example()
    result = lint_source(example.encode(), str(tmp_path / "example.py"),
                         Settings(project_root=tmp_path, select=(IoInWorkflowBody.code,)))
    lines = [example.splitlines()[d.line - 1].strip() for d in result.diagnostics]
    assert lines == ['requests.post("https://example.com/audit", json={"summary": summary})']


def test_io_functions_replaces_the_library_list(tmp_path):
    example = _runtime_example()
    settings = Settings(project_root=tmp_path, select=(IoInWorkflowBody.code,), io_functions=("mydb.*",))
    assert lint_source(example.encode(), str(tmp_path / "example.py"), settings).diagnostics == []


def test_io_functions_is_read_from_tool_steplint(tmp_path):
    from steplint.config.settings import ConfigError, settings_from_table

    config = tmp_path / "pyproject.toml"
    assert settings_from_table({"io-functions": ["mydb.*"]}, config).io_functions == ("mydb.*",)
    assert Settings().io_functions is None
    try:
        settings_from_table({"io-functions": [1]}, config)
    except ConfigError as error:
        assert "'io-functions' must be a list of strings" in str(error)
    else:
        raise AssertionError("a bad io-functions value was accepted")
