"""--format sarif|github|json-lines|pylint (and text/json) with --output-file, and the README's CI snippets."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

import jsonschema
import pytest
import yaml
from integrations import FLOW_FINDING, ROOT, make_project, snippet, tool

from steplint.frontends.cli import FORMAT_NAMES
from steplint.core.diagnostics import Diagnostic
from steplint.report.github_format import annotation
from steplint.report.formats import FORMATTERS
from steplint.catalog.registry import all_rules

RULES = all_rules()

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
# Fixtures with every kind of finding (STP002's chain too) and no two findings at one place:
# the tests compare the output of separate runs.
SAMPLE = ("fixtures/multimodule", "fixtures/repro_9383.py", "fixtures/stp002_helpers.py", "fixtures/stp040_sync.py")


def steplint(*args: str, cwd: Path = ROOT, check_exit: int | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run([tool("steplint"), *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    if check_exit is not None:
        assert done.returncode == check_exit, done.stderr
    return done


def validate_sarif(log: dict) -> None:
    validator = jsonschema.validators.validator_for(SCHEMA)(SCHEMA)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


@pytest.fixture(scope="module")
def fixture_findings() -> list[dict]:
    return json.loads(steplint("--format", "json", *SAMPLE, check_exit=1).stdout)


def test_format_names_are_the_formatters():
    assert set(FORMAT_NAMES) == set(FORMATTERS)


def test_sarif_is_valid_and_complete(fixture_findings):
    log = json.loads(steplint("--format", "sarif", *SAMPLE, check_exit=1).stdout)
    validate_sarif(log)
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "steplint" and driver["version"] and driver["informationUri"].startswith("https://")
    assert [rule["id"] for rule in driver["rules"]] == [rule.code for rule in RULES]
    for descriptor, rule in zip(driver["rules"], RULES):
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert descriptor["fullDescription"]["text"]
        assert descriptor["help"]["markdown"] == rule.doc()
        assert descriptor["helpUri"] == rule.help_uri()
        assert descriptor["defaultConfiguration"]["level"] == {"error": "error", "warning": "warning"}.get(rule.severity, "note")
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == ROOT.as_uri() + "/"
    results = run["results"]
    assert len(results) == len(fixture_findings) > 10
    for result, finding in zip(results, fixture_findings):
        assert result["ruleId"] == finding["code"]
        assert driver["rules"][result["ruleIndex"]]["id"] == finding["code"]
        assert result["level"] == finding["severity"]
        assert result["message"]["text"] == finding["message"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": finding["path"], "uriBaseId": "%SRCROOT%"}
        assert location["region"] == {
            "startLine": finding["line"],
            "startColumn": finding["column"],
            "endLine": finding["end_line"],
            "endColumn": finding["end_column"],
        }
        assert result["partialFingerprints"]["steplint/v1"]
    fingerprints = [r["partialFingerprints"]["steplint/v1"] for r in results]
    assert len(set(fingerprints)) == len(fingerprints)
    assert any(r.get("properties", {}).get("chain") for r in results if r["ruleId"] == "STP002")


def test_sarif_without_findings_is_valid(tmp_path):
    (tmp_path / "clean.py").write_text("x = 1\n")
    log = json.loads(steplint("--format", "sarif", "clean.py", cwd=tmp_path, check_exit=0).stdout)
    validate_sarif(log)
    assert log["runs"][0]["results"] == []


def test_sarif_fingerprints_follow_a_finding_when_lines_move(tmp_path):
    project = make_project(tmp_path)
    flow = project / "pkg" / "flow.py"

    def results() -> list[dict]:
        return json.loads(steplint("--format", "sarif", "pkg", cwd=project).stdout)["runs"][0]["results"]

    before = results()
    flow.write_text("# a comment\n\n" + flow.read_text())
    after = results()
    assert [r["partialFingerprints"] for r in before] == [r["partialFingerprints"] for r in after]
    moved = [
        r["locations"][0]["physicalLocation"]["region"]["startLine"]
        for r in after
        if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == FLOW_FINDING[0]
    ]
    assert moved == [FLOW_FINDING[1] + 2]


def test_sarif_path_outside_the_working_folder_is_an_absolute_uri(tmp_path):
    make_project(tmp_path)
    log = json.loads(steplint("--format", "sarif", str(tmp_path / "pkg" / "flow.py"), cwd=ROOT).stdout)
    validate_sarif(log)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": (tmp_path / "pkg" / "flow.py").as_uri()}


def _unescape(text: str, is_property: bool) -> str:
    """What the Actions runner does to a command's values, in its order."""
    pairs = [("%0D", "\r"), ("%0A", "\n")] + ([("%3A", ":"), ("%2C", ",")] if is_property else []) + [("%25", "%")]
    for escaped, raw in pairs:
        text = text.replace(escaped, raw)
    return text


# The runner splits at the first "::" after the command, and the properties at ",".
COMMAND = re.compile(r"^::(?P<command>error|warning|notice) (?P<properties>[^:]*)::(?P<message>[^\r\n]*)$")


def _parse_command(line: str) -> tuple[str, dict[str, str], str]:
    match = COMMAND.match(line)
    assert match, line
    properties = dict(pair.split("=", 1) for pair in match.group("properties").split(","))
    return (
        match.group("command"),
        {key: _unescape(value, True) for key, value in properties.items()},
        _unescape(match.group("message"), False),
    )


def test_github_annotations_match_the_findings(fixture_findings):
    lines = steplint("--format", "github", *SAMPLE, check_exit=1).stdout.splitlines()
    assert len(lines) == len(fixture_findings)
    for line, finding in zip(lines, fixture_findings):
        command, properties, message = _parse_command(line)
        assert command == finding["severity"]
        assert properties == {
            "title": f"steplint {finding['code']} ({finding['name']})",
            "file": finding["path"],
            "line": str(finding["line"]),
            "col": str(finding["column"]),
            "endLine": str(finding["end_line"]),
            "endColumn": str(finding["end_column"]),
        }
        assert message == f"{finding['code']} {finding['message']}"


def test_github_escapes_percent_newlines_colons_and_commas():
    tricky = Diagnostic(
        path="dir,with:odd%0A/file.py",
        line=3,
        column=5,
        end_line=3,
        end_column=9,
        code="STP001",
        name="step-calls-step",
        severity="warning",
        message="100% wrong:\r\nsee a, b::c %0A",
    )
    line = annotation(tricky)
    assert "\n" not in line and "\r" not in line
    assert line.endswith("::STP001 100%25 wrong:%0D%0Asee a, b::c %250A")
    assert ",file=dir%2Cwith%3Aodd%250A/file.py," in line
    command, properties, message = _parse_command(line)
    assert (command, properties["file"], message) == ("warning", tricky.path, "STP001 " + tricky.message)


def test_json_lines_are_the_json_items(fixture_findings):
    lines = steplint("--format", "json-lines", *SAMPLE, check_exit=1).stdout.splitlines()
    assert [json.loads(line) for line in lines] == fixture_findings


def test_pylint_parseable_lines(fixture_findings):
    lines = steplint("--format", "pylint", *SAMPLE, check_exit=1).stdout.splitlines()
    assert lines == [f"{f['path']}:{f['line']}: [{f['code']}({f['name']}), ] {f['message']}" for f in fixture_findings]


@pytest.mark.parametrize("output_format", FORMAT_NAMES)
def test_output_file_works_with_every_format(tmp_path, output_format):
    make_project(tmp_path)
    printed = steplint("--format", output_format, "pkg", cwd=tmp_path, check_exit=1).stdout
    written = steplint("--format", output_format, "--output-file", "reports/out", "pkg", cwd=tmp_path, check_exit=1)
    assert written.stdout == ""
    assert (tmp_path / "reports" / "out").read_text(encoding="utf-8") == printed
    assert "STP001" in printed


def test_output_file_that_cannot_be_written_exits_2(tmp_path):
    make_project(tmp_path)
    (tmp_path / "taken").write_text("a file, not a folder")
    done = steplint("--output-file", "taken/out.txt", "pkg", cwd=tmp_path, check_exit=2)
    assert done.stderr.startswith("steplint: error: cannot write --output-file") and "Traceback" not in done.stderr


def _steplint_command(run_line: str) -> list[str]:
    """The steplint part of a workflow ``run:`` line (``pip install steplint && steplint ...``)."""
    (command,) = [part for part in run_line.split("&&") if part.strip().startswith("steplint ")]
    return shlex.split(command)


def test_readme_code_scanning_workflow_uploads_valid_sarif(tmp_path):
    workflow = yaml.safe_load(snippet("GitHub code scanning", "yaml"))
    steps = workflow["jobs"]["steplint"]["steps"]
    assert workflow["jobs"]["steplint"]["permissions"]["security-events"] == "write"
    (upload,) = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    (run_line,) = [s["run"] for s in steps if "run" in s and "--format sarif" in s["run"]]
    make_project(tmp_path)
    command = _steplint_command(run_line)
    done = subprocess.run([tool("steplint"), *command[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr  # --exit-zero: the upload step still runs
    log = json.loads((tmp_path / upload["with"]["sarif_file"]).read_text(encoding="utf-8"))
    validate_sarif(log)
    found = {(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["ruleId"]) for r in log["runs"][0]["results"]}
    assert (FLOW_FINDING[0], FLOW_FINDING[3]) in found


