"""``steplint graph --calls``: the resolved call graph, compared both ways with expected graphs, and the rules' chains in it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from steplint.api import lint_paths
from steplint.config.settings import Settings
from steplint.run.graph_run import call_graph_for, identity_under

HERE = Path(__file__).resolve().parent
PROGRAMS = sorted(p for p in (HERE / "call_graphs").iterdir() if p.is_dir())
FIXTURES = HERE.parent / "fixtures"


def _edges(graph: dict[str, list[str]]) -> set[tuple[str, str]]:
    return {(caller, callee) for caller, callees in graph.items() for callee in callees}


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_call_graph_matches_the_expected_one(program):
    expected = json.loads((program / "expected.json").read_text(encoding="utf-8"))
    found = call_graph_for([str(program)], Settings(project_root=program)).graph
    assert set(found) == set(expected), "every function and module of the analyzed code is a key"
    missing = sorted(_edges(expected) - _edges(found))
    extra = sorted(_edges(found) - _edges(expected))
    assert not missing and not extra, f"missing: {missing}\nextra: {extra}"


def test_there_is_a_program_of_every_kind_the_issue_names():
    kinds = {p.name for p in PROGRAMS}
    assert kinds >= {"arguments", "assignments", "classes", "decorators", "dicts", "lists", "lambdas", "returns",
                     "mro", "imports", "keyword_arguments", "generators"}


def test_the_command_prints_the_graph_as_json(tmp_path):
    program = HERE / "call_graphs" / "imports"
    done = subprocess.run(
        [sys.executable, "-m", "steplint", "graph", "--calls", "--format", "json", str(program)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads((program / "expected.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "relative, identity",
    [
        ("main.py", ("main", False)),
        ("pkg/__init__.py", ("pkg", True)),
        ("pkg/sub/deep.py", ("pkg.sub.deep", False)),
        ("nspace/mod.py", ("nspace.mod", False)),
        ("src/pkg/mod.py", ("pkg.mod", False)),
        ("__init__.py", None),
        ("a.b.py", None),
        ("my-dir/mod.py", None),
    ],
)
def test_modules_are_named_from_the_folder_given(tmp_path, relative, identity):
    path = tmp_path / relative
    assert identity_under(str(tmp_path), str(path)) == identity


@pytest.mark.parametrize("fixture", ["value_flow_callbacks.py", "value_flow_instances.py"])
def test_every_nesting_chain_the_rules_report_is_a_path_of_the_graph(fixture, monkeypatch):
    """The rules read the same resolution as the graph: a finding never rests on a call the graph lacks."""
    monkeypatch.chdir(FIXTURES)  # a file given alone is named from the current folder
    path = FIXTURES / fixture
    graph = call_graph_for([str(path)], Settings(project_root=FIXTURES)).graph
    edges = _edges(graph)
    findings = lint_paths([str(path)], Settings(project_root=FIXTURES)).diagnostics
    chains = [d.chain for d in findings if d.code == "STP002"]
    assert chains
    for chain in chains:
        for caller, callee in zip(chain, chain[1:]):
            assert (caller, callee) in edges, (caller, callee)
