"""Fixes: goldens, idempotence, edits an editor can apply, and --fix/--unsafe-fixes/--diff through a real subprocess."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_samples import nested, steplint
from expectations import FIXTURES, settings_for

from steplint.frontends.autofix import fix_findings
from steplint.config.settings import Settings
from steplint.core.diagnostics import Diagnostic, Edit, Fix
from steplint.api import lint_paths, lint_source
from steplint.fixes.apply import apply_fixes, fixable
from steplint.fixes.rewrites import rewrite_call, smallest_edit
from steplint.catalog.registry import all_rules, rule_for

RULES = all_rules()
from steplint.core.summary import Span

GOLDENS = sorted(FIXTURES.rglob("*.fixed.py"))

NESTED = nested()


def _source_of(golden: Path) -> Path:
    return golden.with_name(golden.name.removesuffix(".fixed.py") + ".py")


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda p: p.name)
def test_every_fix_applied_to_its_fixture_gives_the_golden(golden):
    source = _source_of(golden)
    settings = settings_for(source)
    findings = lint_paths([str(source)], settings).diagnostics
    assert fixable(findings, unsafe=True), f"{source.name} has nothing to fix"
    outcome = fix_findings(findings, settings, unsafe=True)
    assert [file.path for file in outcome.files] == [str(source)]
    assert outcome.files[0].fixed == golden.read_text(encoding="utf-8")
    # Idempotent: the fixed text, linted as the same file, has nothing left to fix.
    again = lint_source(outcome.files[0].encoded(), str(source), settings).diagnostics
    assert fixable(again, unsafe=True) == []


def test_every_rule_with_a_fix_has_a_golden_and_a_fix_safety_section():
    fixed_codes = set()
    for golden in GOLDENS:
        source = _source_of(golden)
        fixed_codes |= {d.code for d in fixable(lint_paths([str(source)], settings_for(source)).diagnostics, unsafe=True)}
    documented = {rule.code for rule in RULES if "## Fix safety" in rule.doc()}
    declared = {rule.code for rule in RULES if rule.fix is not None}
    assert fixed_codes == documented == declared
    assert {"STP001", "STP100"} <= fixed_codes
    for rule in RULES:
        if rule.fix is not None:
            assert rule.fix in ("safe", "unsafe")
            assert rule.fix.capitalize() in rule.doc().split("## Fix safety", 1)[1], rule.code


def test_the_stp001_fix_is_unsafe_and_says_what_it_does(tmp_path):
    (tmp_path / "nested.py").write_text(NESTED)
    [finding] = lint_paths([str(tmp_path / "nested.py")], Settings(project_root=tmp_path)).diagnostics
    assert finding.fix == Fix((Edit(9, 22, 9, 22, ".__wrapped__"),), safe=False, title="Call 'tick.__wrapped__(...)' inline")
    assert fixable([finding]) == [] and fixable([finding], unsafe=True) == [finding]
    assert "unsafe" in rule_for("STP001").doc().split("## Fix safety", 1)[1]


def test_no_fix_for_a_method_step_or_a_step_that_takes_the_run_context(tmp_path):
    (tmp_path / "forms.py").write_text(
        "from agent_framework import RunContext, step\n\n"
        "@step\nasync def with_ctx(x: str, context: RunContext) -> str:\n    return x\n\n"
        "class Jobs:\n    @staticmethod\n    @step\n    async def tick(x: str) -> str:\n        return x\n\n"
        "@step\nasync def outer(x: str) -> str:\n    await with_ctx(x)\n    return await Jobs.tick(x)\n"
    )
    findings = lint_paths([str(tmp_path / "forms.py")], Settings(project_root=tmp_path, select=("STP001",))).diagnostics
    assert [d.line for d in findings] == [15, 16]
    assert all(d.fix is None for d in findings)


# --- edits on text -------------------------------------------------------------------------


def _finding(*edits: Edit, safe: bool = True, line: int = 1) -> Diagnostic:
    return Diagnostic("f.py", line, 1, line, 2, "STP001", "step-calls-step", "error", "m", fix=Fix(edits, safe, "t"))


def test_apply_fixes_keeps_line_endings_and_counts_columns_in_characters():
    text = "a = 'é'; b(x)\r\nc(y)\r\n"
    fixed = apply_fixes(text, [_finding(Edit(1, 11, 1, 11, ".w")), _finding(Edit(2, 2, 2, 2, ".w"), line=2)])
    assert fixed == "a = 'é'; b.w(x)\r\nc.w(y)\r\n"


def test_apply_fixes_leaves_out_a_fix_that_overlaps_an_earlier_one():
    text = "abcdef\n"
    first = _finding(Edit(1, 2, 1, 4, "X"))
    overlapping = _finding(Edit(1, 3, 1, 5, "Y"))
    touching = _finding(Edit(1, 4, 1, 5, "Z"))
    assert apply_fixes(text, [first, overlapping, touching]) == "aXZef\n"
    same_place = [_finding(Edit(1, 1, 1, 1, "1")), _finding(Edit(1, 1, 1, 1, "2"))]
    assert apply_fixes(text, same_place) == "1abcdef\n"


def test_apply_fixes_ignores_an_edit_outside_the_text_and_applies_a_shared_fix_once():
    text = "x\n"
    assert apply_fixes(text, [_finding(Edit(5, 1, 5, 1, "!"))]) == text
    shared = _finding(Edit(1, 2, 1, 2, "!"))
    assert apply_fixes(text, [shared, shared]) == "x!\n"


def test_smallest_edit_across_lines():
    assert smallest_edit("f(\n  a)", "f.w(\n  a)", 3, 4) == Edit(3, 6, 3, 6, ".w")
    assert smallest_edit("f(\n  a)", "f(\n  b)", 3, 4) == Edit(4, 3, 4, 4, "b")
    assert smallest_edit("same", "same", 1, 0) is None


def test_rewrite_call_declines_when_the_text_no_longer_holds_that_call():
    def transform(call):
        return call

    assert rewrite_call("x = other(1)\n", Span(1, 4, 1, 12), "tick", transform, title="t", safe=False) is None
    assert rewrite_call("x = tick(\n", Span(1, 4, 1, 9), "tick", transform, title="t", safe=False) is None
    assert rewrite_call(None, Span(1, 0, 1, 1), "tick", transform, title="t", safe=False) is None


def test_a_buffer_that_differs_from_the_file_on_disk_gets_its_own_fix(tmp_path):
    # An editor lints unsaved text: the fix must be made from that text, not from the file.
    (tmp_path / "nested.py").write_text("# saved\n" + NESTED)
    buffer = NESTED.replace("return await tick(x)", "return  await   tick(x)")
    [finding] = lint_source(buffer.encode(), str(tmp_path / "nested.py"), Settings(project_root=tmp_path)).diagnostics
    assert apply_fixes(buffer, [finding]).endswith("return  await   tick.__wrapped__(x)\n")


# --- the command line ------------------------------------------------------------------------


def test_cli_fix_applies_only_safe_fixes_and_says_so(tmp_path):
    (tmp_path / "nested.py").write_text(NESTED)
    result = steplint("--fix", "nested.py", cwd=tmp_path)
    assert result.returncode == 1
    assert (tmp_path / "nested.py").read_text() == NESTED
    assert result.stdout.splitlines()[-2:] == [
        "Found 1 finding (0 fixed, 1 remaining).", "1 hidden fix can be enabled with `--unsafe-fixes`."
    ]


def test_cli_unsafe_fixes_write_report_what_is_left_and_a_second_run_changes_nothing(tmp_path):
    (tmp_path / "nested.py").write_text(NESTED + "\n@step\nasync def again(x: str) -> str:\n    return await tick(tick)\n")
    result = steplint("--fix", "--unsafe-fixes", "nested.py", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == "Found 2 findings (2 fixed, 0 remaining).\n"
    fixed = (tmp_path / "nested.py").read_text()
    assert "return await tick.__wrapped__(x)\n" in fixed and "return await tick.__wrapped__(tick)\n" in fixed
    second = steplint("--fix", "--unsafe-fixes", "nested.py", cwd=tmp_path)
    assert second.returncode == 0 and second.stdout == "All checks passed!\n"
    assert (tmp_path / "nested.py").read_text() == fixed


def test_cli_fix_with_json_keeps_stdout_json(tmp_path):
    (tmp_path / "nested.py").write_text(NESTED)
    result = steplint("--fix", "--unsafe-fixes", "--format", "json", "nested.py", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == "[]\n"
    assert "Fixed 1 finding in 1 file; 0 remaining." in result.stderr


def test_cli_diff_prints_without_writing_and_exits_1(tmp_path):
    (tmp_path / "nested.py").write_text(NESTED)
    result = steplint("--diff", "--unsafe-fixes", "nested.py", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == (
        "--- nested.py\n+++ nested.py\n@@ -6,4 +6,4 @@\n \n @step\n async def wrapper(x: str) -> str:\n"
        "-    return await tick(x)\n+    return await tick.__wrapped__(x)\n"
    )
    assert "Would fix 1 finding in 1 file." in result.stderr
    assert (tmp_path / "nested.py").read_text() == NESTED
    # Without --unsafe-fixes there is nothing to show: exit 0.
    safe_only = steplint("--diff", "nested.py", cwd=tmp_path)
    assert safe_only.returncode == 0 and safe_only.stdout == ""
    assert "No fixes available (1 unsafe fix available with --unsafe-fixes)." in safe_only.stderr


def test_cli_fix_keeps_encoding_bom_and_line_endings(tmp_path):
    latin = "# -*- coding: latin-1 -*-\n# café\n" + NESTED
    (tmp_path / "latin.py").write_bytes(latin.replace("\n", "\r\n").encode("latin-1"))
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf" + NESTED.encode())
    assert steplint("--fix", "--unsafe-fixes", ".", cwd=tmp_path).returncode == 0
    expected = latin.replace("tick(x)", "tick.__wrapped__(x)").replace("\n", "\r\n").encode("latin-1")
    assert (tmp_path / "latin.py").read_bytes() == expected
    assert (tmp_path / "bom.py").read_bytes() == b"\xef\xbb\xbf" + NESTED.replace("tick(x)", "tick.__wrapped__(x)").encode()


def test_cli_fix_on_standard_input_prints_the_fixed_text(tmp_path):
    result = steplint("--fix", "--unsafe-fixes", "--stdin-filename", "nested.py", "-", cwd=tmp_path, stdin=NESTED)
    assert result.returncode == 0
    assert result.stdout == NESTED.replace("tick(x)", "tick.__wrapped__(x)")
    assert "Fixed 1 finding in 1 file; 0 remaining." in result.stderr
    diff = steplint("--diff", "--unsafe-fixes", "--stdin-filename", "nested.py", "-", cwd=tmp_path, stdin=NESTED)
    assert diff.returncode == 1 and "+    return await tick.__wrapped__(x)" in diff.stdout


def test_cli_fix_leaves_a_silenced_finding_alone(tmp_path):
    source = NESTED.replace("return await tick(x)", "return await tick(x)  # noqa: STP001")
    (tmp_path / "nested.py").write_text(source)
    assert steplint("--fix", "--unsafe-fixes", "nested.py", cwd=tmp_path).returncode == 0
    assert (tmp_path / "nested.py").read_text() == source
