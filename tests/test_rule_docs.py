"""Rule docs: ruff's sections in ruff's order, the MAF issue where it applies, and the rule/rules commands."""

from __future__ import annotations

import re

import pytest
from cli_samples import steplint

from steplint.catalog.registry import all_rules

RULES = all_rules()

ORDER = ("## What it does", "## Why is this bad?", "## Example", "## Use instead", "## Fix safety", "## References")
REQUIRED = ORDER[:4]
MAF_ISSUE = "https://github.com/microsoft/agent-framework/issues/9383"
# The rules about call-order cache keys: the hazard that issue reports.
CALL_ORDER_RULES = {"STP001", "STP002", "STP010", "STP011", "STP012", "STP013", "STP020"}


def _sections(doc: str) -> list[str]:
    return [line.strip() for line in doc.splitlines() if line.startswith("## ")]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_sections_are_ruffs_in_ruffs_order(rule):
    sections = _sections(rule.doc())
    assert set(REQUIRED) <= set(sections), f"{rule.code} lacks {set(REQUIRED) - set(sections)}"
    assert all(section in ORDER for section in sections), f"{rule.code}: unexpected {sections}"
    assert sections == sorted(sections, key=ORDER.index)
    for section, body in zip(sections, re.split(r"^## .*$", rule.doc(), flags=re.M)[1:]):
        assert body.strip(), f"{rule.code}: '{section}' is empty"
    assert "```python" in rule.doc().split("## Example", 1)[1].split("## Use instead", 1)[0]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_references_are_a_list_with_links_and_name_the_maf_issue_where_it_applies(rule):
    doc = rule.doc()
    if "## References" in doc:
        references = [line.strip() for line in doc.split("## References", 1)[1].splitlines() if line.strip()]
        assert references and all(line.startswith("- ") for line in references), references
        assert any("https://" in line for line in references), references
    if rule.code in CALL_ORDER_RULES:
        assert MAF_ISSUE in doc.split("## References", 1)[-1], f"{rule.code} does not link the MAF issue"


def test_the_call_order_rules_are_registered():
    assert CALL_ORDER_RULES <= {rule.code for rule in RULES}



def test_rules_lists_code_name_severity_and_default_state():
    result = steplint("rules")
    assert result.returncode == 0
    rows = [line.split() for line in result.stdout.splitlines()]
    assert [row[:4] for row in rows] == [
        [rule.code, rule.name, rule.severity, "on" if rule.default_enabled else "opt-in"] for rule in RULES
    ]


def test_rule_prints_the_doc_page_case_insensitively():
    result = steplint("rule", "stp001")
    assert result.returncode == 0
    assert result.stdout.startswith("# STP001 step-calls-step (error, on by default)\n\n## What it does\n")
    assert MAF_ISSUE in result.stdout and "## Fix safety" in result.stdout
    assert steplint("rule", "STP100").stdout.startswith("# STP100 unused-noqa (warning, opt-in)\n")


def test_rule_all_prints_every_page_in_code_order():
    result = steplint("rule", "--all")
    assert result.returncode == 0
    assert re.findall(r"^# (STP\d{3}) ", result.stdout, flags=re.M) == [rule.code for rule in RULES]


@pytest.mark.parametrize("args", [("rule", "STP999"), ("rule", "step-calls-stp"), ("rule",), ("rule", "STP001", "--all")])
def test_rule_usage_errors_exit_2_with_one_line(args):
    result = steplint(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("steplint: error: ")


@pytest.mark.parametrize("name", ["step-calls-step", "STEP-CALLS-STEP", "stp001"])
def test_a_rule_is_found_by_its_kebab_case_name_or_its_code_in_any_case(name):
    result = steplint("rule", name)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# STP001 step-calls-step (error, on by default)\n")
