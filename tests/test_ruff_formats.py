"""The output formats ruff has, as ruff prints them, through the real ``steplint``: ruff's JSON schema (with
steplint's own keys kept), json-lines, grouped, junit, gitlab, rdjson, azure, and ``--statistics``."""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from cli_samples import nested, steplint

from steplint.catalog.registry import rule_for

NESTED = nested()  # STP001 at 9:18 (an unsafe fix); STP040 comes from a sync step below
SYNC = "from agent_framework import step\n\n@step\ndef tock(x: str) -> str:\n    return x\n"
RUFF_KEYS = ["cell", "code", "end_location", "filename", "fix", "location", "message", "noqa_row", "url"]
STEPLINT_KEYS = ["path", "line", "column", "end_line", "end_column", "name", "severity"]


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "nested.py").write_text(NESTED)
    (tmp_path / "sync.py").write_text(SYNC)
    return tmp_path


def output(project: Path, *args: str) -> str:
    done = steplint("--no-cache", "--isolated", *args, "nested.py", "sync.py", cwd=project)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stdout


def test_json_has_ruffs_schema_and_steplints_keys(project):
    items = json.loads(output(project, "--format", "json"))
    nested_item = next(item for item in items if item["code"] == "STP001")
    assert list(nested_item) == RUFF_KEYS + STEPLINT_KEYS
    assert nested_item["filename"] == str(project / "nested.py")
    assert nested_item["location"] == {"column": 18, "row": 9} and nested_item["noqa_row"] == 9
    assert nested_item["end_location"] == {"column": nested_item["end_column"], "row": 9}
    assert nested_item["url"] == rule_for("STP001").help_uri() and nested_item["cell"] is None
    fix = nested_item["fix"]
    assert fix["applicability"] == "unsafe" and fix["message"]
    (edit,) = fix["edits"]
    assert set(edit) == {"content", "location", "end_location"} and edit["content"] == ".__wrapped__"
    assert (nested_item["path"], nested_item["line"], nested_item["column"]) == ("nested.py", 9, 18)
    assert next(item for item in items if item["code"] != "STP001")["fix"] is None
    lines = output(project, "--format", "json-lines").splitlines()
    assert [json.loads(line) for line in lines] == items


def test_grouped(project):
    text = output(project, "--format", "grouped")
    assert text.startswith("nested.py:\n  9:18 STP001 step 'wrapper' calls step 'tick'")
    assert "\n\nsync.py:\n  4:1 STP040 " in text and text.endswith("Found 2 findings (1 error, 1 warning).\n"
                                                                    "1 hidden fix can be enabled with `--unsafe-fixes`.\n")


def test_junit_is_xml_with_a_failure_per_finding(project):
    root = ElementTree.fromstring(output(project, "--format", "junit"))
    assert (root.tag, root.get("name"), root.get("tests"), root.get("failures")) == ("testsuites", "steplint", "2", "2")
    suites = {suite.get("name"): suite for suite in root}
    case = suites["nested.py"].find("testcase")
    assert (case.get("name"), case.get("classname"), case.get("line"), case.get("column")) == (
        "org.steplint.STP001", "nested", "9", "18")
    assert case.find("failure").text.startswith("line 9, col 18, step 'wrapper' calls step 'tick'")
    clean = steplint("--isolated", "--format", "junit", "sync.py", "--ignore", "STP040", cwd=project)
    assert ElementTree.fromstring(clean.stdout).find("testsuite/testcase").get("name") == "No errors found"


def test_gitlab_code_quality(project):
    issues = json.loads(output(project, "--format", "gitlab"))
    for issue in issues:
        assert {"description", "check_name", "fingerprint", "severity", "location"} <= set(issue)
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
    assert len({issue["fingerprint"] for issue in issues}) == len(issues)
    first = issues[0]
    assert first["check_name"] == "STP001" and first["severity"] == "minor"  # a warning on the newest release
    assert first["location"] == {"path": "nested.py", "positions": {"begin": {"column": 18, "line": 9},
                                                                    "end": {"column": 25, "line": 9}}}
    moved = steplint("--isolated", "--format", "gitlab", "nested.py", cwd=project,
                     env={"CI_PROJECT_DIR": str(project.parent)})
    assert json.loads(moved.stdout)[0]["location"]["path"] == f"{project.name}/nested.py"


def test_rdjson_for_reviewdog(project):
    result = json.loads(output(project, "--format", "rdjson", "--unsafe-fixes"))
    assert result["source"]["name"] == "steplint" and result["severity"] == "WARNING"
    first = result["diagnostics"][0]
    assert first["code"] == {"url": rule_for("STP001").help_uri(), "value": "STP001"}
    assert first["location"]["path"] == "nested.py" and first["location"]["range"]["start"] == {"column": 18, "line": 9}
    assert first["severity"] == "WARNING" and first["suggestions"][0]["text"] == ".__wrapped__"


def test_azure_logging_commands(project):
    lines = output(project, "--format", "azure").splitlines()
    assert re.fullmatch(r"##vso\[task\.logissue type=warning;sourcepath=nested\.py;linenumber=9;columnnumber=18;"
                        r"code=STP001;\]step 'wrapper' calls step 'tick'.*", lines[0])
    assert lines[1].startswith("##vso[task.logissue type=error;sourcepath=sync.py;linenumber=4;")


def test_statistics_as_ruff_prints_them(project):
    (project / "more.py").write_text(SYNC.replace("tock", "tack") + SYNC.replace("tock", "tuck").split("\n", 2)[2])
    done = steplint("--no-cache", "--isolated", "--statistics", "--unsafe-fixes", ".", cwd=project)
    assert done.stdout == "3\tSTP040\t[ ] sync-step\n1\tSTP001\t[*] step-calls-step\n"  # by count, then code
    rows = json.loads(steplint("--isolated", "--statistics", "--format", "json", ".", cwd=project).stdout)
    assert rows == [{"code": "STP040", "name": "sync-step", "count": 3, "fixable": False},
                    {"code": "STP001", "name": "step-calls-step", "count": 1, "fixable": False}]


def test_output_format_is_checked(project):
    (project / "pyproject.toml").write_text('[tool.steplint]\noutput-format = "xml"\n')
    done = steplint("nested.py", cwd=project)
    assert done.returncode == 2 and "'output-format' must be one of" in done.stderr and os.linesep in done.stderr
