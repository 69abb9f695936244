"""``steplint graph``: the workflow pictures, compared with expected graphs, drawn by the real Graphviz, parsed by
the real Mermaid."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from expectations import FIXTURES, settings_for
from integrations import installed_tool

from steplint.api import lint_paths
from steplint.catalog.registry import rule_for

ROOT = Path(__file__).resolve().parent.parent
GRAPHS = sorted((ROOT / "tests" / "graphs").glob("*.json"))
EXAMPLE_SVG = ROOT / "docs" / "graph-multimodule.svg"


def steplint(*args: str, cwd: Path = ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "steplint", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=env)


def _arguments(expected: Path) -> list[str]:
    """``multimodule-all-helpers.json`` draws ``fixtures/multimodule`` with ``--all --helpers``."""
    name, *flags = expected.stem.split("-")
    target = ROOT / "fixtures" / name
    if not target.exists():
        target = target.with_suffix(".py")
    return [*(f"--{flag}" for flag in flags), str(target.relative_to(ROOT))]


@pytest.mark.parametrize("expected", GRAPHS, ids=lambda p: p.stem)
def test_graph_json_matches_the_expected_graph(expected):
    done = steplint("graph", "--format", "json", *_arguments(expected))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(expected.read_text(encoding="utf-8"))


def test_the_multimodule_graph_draws_the_nesting_across_modules():
    graph = json.loads((ROOT / "tests" / "graphs" / "multimodule.json").read_text(encoding="utf-8"))
    names = {node["id"]: node for node in graph["nodes"]}
    nested = [e for e in graph["edges"] if any(h["code"] == "STP002" for h in e["hazards"])]
    assert nested, "orchestrate reaches tick through a helper in another module"
    for edge in nested:
        assert names[edge["from"]]["module"] != names[edge["to"]]["module"]
        assert edge["via"] == ["shout"]


@pytest.mark.parametrize("options", [[], ["--all"], ["--helpers", "--all"]], ids=["workflows", "all", "helpers"])
@pytest.mark.parametrize("fixture", ["multimodule", "stp020_concurrency", "value_flow_containers.py"])
def test_graphviz_draws_the_dot_without_a_warning(fixture, options):
    dot = installed_tool("dot", "Graphviz, apt-get install graphviz")
    source = steplint("graph", "--format", "dot", *options, f"fixtures/{fixture}")
    assert source.returncode == 0, source.stderr
    drawn = subprocess.run([dot, "-Tsvg"], input=source.stdout, capture_output=True, text=True, timeout=120)
    assert drawn.returncode == 0 and drawn.stderr == "", drawn.stderr
    graph = json.loads(steplint("graph", "--format", "json", *options, f"fixtures/{fixture}").stdout)
    for node in graph["nodes"]:
        assert f">{node['name']}" in drawn.stdout.replace("&#45;", "-"), node["name"]
    for family in {h["family"] for n in graph["nodes"] for h in n["hazards"]}:
        colour = {"nesting": "#d1242f", "call-order": "#e16f24", "not-durable": "#8250df", "nondeterminism": "#bf8700",
                  "broken": "#6e7781"}[family]
        assert colour in drawn.stdout


@pytest.fixture(scope="session")
def mermaid_parser(tmp_path_factory) -> Path:
    """The real ``mermaid`` package under Node (with jsdom for its DOM), installed once from npm."""
    installed_tool("node", "Node.js, apt-get install nodejs npm")
    npm = installed_tool("npm", "npm, apt-get install npm")
    folder = ROOT / ".npm-mermaid"
    if not (folder / "node_modules" / "mermaid").is_dir():
        folder.mkdir(exist_ok=True)
        (folder / "package.json").write_text('{"name": "steplint-mermaid-check", "private": true}\n')
        done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "mermaid@11", "jsdom@24"], cwd=folder,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
    shutil.copy(ROOT / "tests" / "mermaid_parse.mjs", folder / "parse.mjs")
    return folder / "parse.mjs"


@pytest.mark.parametrize("options", [[], ["--all"], ["--helpers", "--all"]], ids=["workflows", "all", "helpers"])
@pytest.mark.parametrize("fixture", ["multimodule", "stp020_concurrency", "stp030_nondeterminism", "value_flow_instances.py"])
def test_mermaid_parses_the_graph(mermaid_parser, fixture, options):
    source = steplint("graph", *options, f"fixtures/{fixture}")
    assert source.returncode == 0, source.stderr
    assert source.stdout.startswith("flowchart TD\n")
    parsed = subprocess.run(["node", str(mermaid_parser)], input=source.stdout, capture_output=True, text=True,
                            timeout=120, cwd=mermaid_parser.parent)
    assert parsed.returncode == 0 and parsed.stdout.startswith("ok"), parsed.stdout + parsed.stderr


def test_mermaid_links_each_node_to_its_line():
    source = steplint("graph", "fixtures/multimodule").stdout
    assert 'click n1 "fixtures/multimodule/pkg/orchestrate.py#L' in source
    assert "subgraph legend" in source


def test_dot_nodes_carry_url_and_tooltip():
    source = steplint("graph", "--format", "dot", "fixtures/multimodule").stdout
    assert re.search(r'URL="fixtures/multimodule/pkg/steps.py#L\d+"', source)
    assert 'tooltip="STP002:' in source


def test_html_embeds_the_svg_graphviz_draws_or_else_the_mermaid_source(tmp_path):
    installed_tool("dot", "Graphviz, apt-get install graphviz")
    with_svg = steplint("graph", "--format", "html", "fixtures/multimodule").stdout
    assert "<svg" in with_svg and "<!doctype html>" in with_svg
    bare = tmp_path / "bin"
    bare.mkdir()
    env = {**os.environ, "PATH": str(bare)}  # no dot on the PATH
    without = steplint("graph", "--format", "html", "fixtures/multimodule", env=env).stdout
    assert "<svg" not in without and '<pre class="mermaid">flowchart TD' in without


def test_one_workflow_by_name_and_an_unknown_one():
    one = json.loads(steplint("graph", "--format", "json", "--workflow", "fan_out", "fixtures/stp020_concurrency").stdout)
    assert one["workflows"] == ["app.flow.fan_out"]
    missing = steplint("graph", "--workflow", "nope", "fixtures/stp020_concurrency")
    assert missing.returncode == 2 and "no workflow named 'nope'" in missing.stderr


def _svg_body(svg: str) -> str:
    return re.sub(r"<!-- Generated by graphviz version [^>]*-->\n", "", svg)


def test_the_readme_example_is_what_the_command_draws_now():
    """docs/graph-multimodule.svg: steplint graph --format dot fixtures/multimodule | dot -Tsvg."""
    dot = installed_tool("dot", "Graphviz, apt-get install graphviz")
    source = steplint("graph", "--format", "dot", "fixtures/multimodule").stdout
    drawn = subprocess.run([dot, "-Tsvg"], input=source, capture_output=True, text=True, timeout=120).stdout
    assert _svg_body(drawn) == _svg_body(EXAMPLE_SVG.read_text(encoding="utf-8")), (
        "regenerate: steplint graph --format dot fixtures/multimodule | dot -Tsvg > docs/graph-multimodule.svg"
    )


# Issue 29's rules, each on its fixture: every finding is marked in the graph (a node, an edge, or the graph itself
# for one in module code no node holds), as the rule's ``graph_pin`` says.
ISSUE_29_FIXTURES = [
    ("stp014_duplicate_names", "STP014"), ("stp015_unstable_step_name.py", "STP015"),
    ("stp031_io", "STP031"), ("stp032_unstable_replay_key.py", "STP032"),
    ("stp033_io_before_request_info.py", "STP033"), ("stp043_run_misuse", "STP043"),
    ("stp044_workflow_without_input.py", "STP044"), ("stp051_step_mutates_argument.py", "STP051"),
]


@pytest.mark.parametrize("fixture, code", ISSUE_29_FIXTURES, ids=[code for _, code in ISSUE_29_FIXTURES])
def test_the_graph_marks_every_finding_of_issue_29s_rules(fixture, code):
    entry = FIXTURES / fixture
    findings = {(Path(d.path).resolve(), d.line) for d in lint_paths([str(entry)], settings_for(entry)).diagnostics
                if d.code == code}
    assert findings
    done = steplint("graph", "--all", "--format", "json", str(entry.relative_to(ROOT)))
    assert done.returncode == 0, done.stderr
    graph = json.loads(done.stdout)
    hazards = [h for n in graph["nodes"] for h in n["hazards"]] + [h for e in graph["edges"] for h in e["hazards"]]
    marked = {(Path(ROOT / h["path"]).resolve(), h["line"]) for h in hazards + graph["hazards"] if h["code"] == code}
    assert marked == findings
    on_nodes = [h for h in hazards if h["code"] == code]
    assert on_nodes and all(h["family"] == rule_for(code).family.name for h in on_nodes)
