"""Every registered rule is documented, exercised by a fixture, listed in the README, and its examples hold."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from expectations import EXPECT, expected_for, fixture_entries, parse_header

from steplint.config.settings import Settings
from steplint.api import lint_paths
from steplint.analysis.graph_pins import (
    PIN_BODY,
    PIN_CALL,
    PIN_CALL_AND_CALLEE,
    PIN_DEFINITION,
    PIN_DEFINITION_OR_GRAPH,
    PIN_WORKFLOW_BODY,
)
from steplint.rules.base import Rule
from package_layout import module_name, package_folders
from steplint.catalog.docs import markdown_table, stale_files
from steplint.catalog.registry import all_rules, rule_for

RULES = all_rules()

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ("## What it does", "## Why is this bad?", "## Example", "## Use instead")


def test_codes_are_unique_and_well_formed():
    codes = [rule.code for rule in RULES]
    assert len(codes) == len(set(codes))
    for rule in RULES:
        assert re.fullmatch(r"STP\d{3}", rule.code)
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", rule.name), rule.name
        assert rule.severity in ("error", "warning")
        assert rule_for(rule.code) is rule


def test_every_rule_module_is_registered():
    modules = {module_name(p) for p in package_folders()["steplint.rules"].glob("stp*.py")}
    registered = {rule.__module__ for rule in RULES}
    assert modules == registered


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_has_a_doc_in_ruff_sections(rule: type[Rule]):
    doc = rule.doc()
    positions = [doc.find(section) for section in SECTIONS]
    assert all(p >= 0 for p in positions), f"{rule.code} lacks one of {SECTIONS}"
    assert positions == sorted(positions)
    assert rule.summary


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_states_its_facts(rule: type[Rule]):
    """What the rule book, the graph and the command line say about a rule comes from its class."""
    assert rule.points_at and not rule.points_at.endswith("."), f"{rule.code} says where its findings point"
    assert rule.graph_pin in (PIN_DEFINITION, PIN_CALL, PIN_CALL_AND_CALLEE, PIN_WORKFLOW_BODY, PIN_BODY,
                              PIN_DEFINITION_OR_GRAPH)
    assert rule.family is None or re.fullmatch(r"#[0-9a-f]{6}", rule.family.colour)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_is_exercised_by_a_fixture(rule: type[Rule]):
    expected_codes = {code for entry in fixture_entries() for (_, _, code) in expected_for(entry)}
    assert rule.code in expected_codes


def test_readme_rule_table_is_generated_from_the_registry():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- rules:start -->\n", 1)[1].split("<!-- rules:end -->", 1)[0]
    assert block == markdown_table()


def test_every_generated_doc_is_fresh():
    """README's table, docs/rules/<CODE>.md and docs/rules.md are what ``python -m steplint.catalog.docs`` writes."""
    assert stale_files(ROOT) == [], "run: python -m steplint.catalog.docs"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_each_rule_link_resolves_to_its_page_in_the_repository(rule):
    """SARIF helpUri and LSP codeDescription.href point at docs/rules/<CODE>.md, which exists with the rule's heading."""
    prefix = "https://github.com/steplint/steplint/blob/main/"
    uri = rule.help_uri()
    assert uri.startswith(prefix)
    page = ROOT / uri[len(prefix):]
    assert page.is_file(), page
    assert f"\n# {rule.code} {rule.name}\n" in page.read_text(encoding="utf-8")


def _examples():
    for rule in RULES:
        for index, code in enumerate(rule.VALID):
            yield pytest.param(rule, code, False, id=f"{rule.code}-valid-{index}")
        for index, code in enumerate(rule.INVALID):
            yield pytest.param(rule, code, True, id=f"{rule.code}-invalid-{index}")


@pytest.mark.parametrize("rule, code, invalid", list(_examples()))
def test_rule_examples(tmp_path, rule, code, invalid):
    source = tmp_path / "example.py"
    source.write_text(textwrap.dedent(code).lstrip("\n"), encoding="utf-8")
    expected = set()
    for number, line in enumerate(source.read_text().splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            expected |= {(number, c.strip().partition(":")[0]) for c in match.group("codes").split(",")}
    # An example may declare a target version (``# fixture: target-version=1.19``), as fixtures do.
    header = parse_header(source.read_text())
    result = lint_paths([str(source)], Settings(project_root=tmp_path, **{**header, "select": (rule.code,)}))
    reported = {(d.line, d.code) for d in result.diagnostics}
    assert reported == expected
    assert bool(expected) == invalid
    assert rule.INVALID, f"{rule.code} has no INVALID example"


def _section_code(doc: str, section: str) -> list[str]:
    """The ```python blocks of one section of a rule's doc."""
    start = doc.index(section) + len(section)
    following = [doc.find(s, start) for s in ("\n## ",) if doc.find(s, start) >= 0]
    body = doc[start:min(following) if following else len(doc)]
    return re.findall(r"```python\n(.*?)```", body, flags=re.S)


def _doc_examples():
    for rule in RULES:
        if rule.code == "STP900":
            continue  # its example is a file that does not parse: test_fixtures covers it
        for section, reported in (("## Example", True), ("## Use instead", False)):
            for index, code in enumerate(_section_code(rule.doc(), section)):
                yield pytest.param(rule, code, reported, id=f"{rule.code}-{section[3:].replace(' ', '-').lower()}-{index}")


@pytest.mark.parametrize("rule, code, reported", list(_doc_examples()))
def test_doc_examples_do_what_they_say(tmp_path, rule, code, reported):
    """A rule's ``Example`` gives its code; its ``Use instead`` does not (both are whole programs)."""
    source = tmp_path / "example.py"
    source.write_text(code, encoding="utf-8")
    header = parse_header(code)
    settings = Settings(project_root=tmp_path, **{**header, "extend_select": (rule.code,)})
    codes = {d.code for d in lint_paths([str(source)], settings).diagnostics}
    assert (rule.code in codes) is reported, codes


def test_every_rule_documents_an_example_and_a_fix_as_code():
    for rule in RULES:
        assert _section_code(rule.doc(), "## Example"), rule.code
