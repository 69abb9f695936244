"""``steplint graph`` drawn: Mermaid (GitHub renders it), Graphviz DOT, the JSON behind both, one HTML page.

Every format shows the same thing: workflows (stadiums), steps (boxes) and,
with ``--helpers``, plain helpers (rounded); an awaited call is a solid edge,
a call run in a task of its own (gather, create_task, a task group) a bold
edge, a call through a value (a dict of steps, a callback, a partial) a
dashed one. Hazards colour what they belong to, in the colour of their
rule's family (``Rule.family``: nesting red, keys that fall back to call
order orange, identities MAF cannot make durable purple, nondeterminism in a
workflow body yellow, steps MAF refuses grey), which the legend lists with
its rules' codes. Each node links to its ``path:line``.
"""

from __future__ import annotations

import html
import json
import os
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

from steplint.analysis.workflow_graph import Edge, Graph, Hazard, Node
from steplint.catalog.registry import all_rules, rule_for
from steplint.rules.base import Family

#: A hazard whose rule has no family (and the family's name for it).
OTHER, OTHER_COLOUR = "other", "#6e7781"


@lru_cache(maxsize=1)
def _families() -> tuple[Family, ...]:
    """The rules' families, in the order of their first rule's code: the legend's order."""
    return tuple(dict.fromkeys(rule.family for rule in all_rules() if rule.family is not None))


@lru_cache(maxsize=1)
def colours() -> dict[str, str]:
    """Each family's colour by its name, the neutral one last."""
    return {**{family.name: family.colour for family in _families()}, OTHER: OTHER_COLOUR}


@lru_cache(maxsize=1)
def legend() -> tuple[tuple[str, str], ...]:
    """(family name, text) of each family: ``STP001/STP002: a step calls a step``."""
    return tuple(
        (family.name, "/".join(rule.code for rule in all_rules() if rule.family == family) + f": {family.legend}")
        for family in _families()
    )


def family_of(hazard: Hazard) -> str:
    rule = rule_for(hazard.code)
    return rule.family.name if rule is not None and rule.family is not None else OTHER


EDGE_KINDS = {"awaited": "awaited", "concurrent": "in a task of its own", "value": "through a value"}


def _family(hazards: list[Hazard]) -> str | None:
    order = [name for name, _ in legend()]
    families = sorted({family_of(h) for h in hazards}, key=lambda f: order.index(f) if f in order else len(order))
    return families[0] if families else None


def _label(node: Node) -> str:
    codes = sorted({h.code for h in node.hazards})
    return f"{node.name}" + (f" [{', '.join(codes)}]" if codes else "")


def _edge_label(edge: Edge) -> str:
    parts = [f"{len(edge.calls)} calls"] if len(edge.calls) > 1 else []
    if edge.via:
        parts.append("via " + " -> ".join(edge.via))
    if edge.kind == "concurrent":
        parts.append("task")
    codes = sorted({h.code for h in edge.hazards})
    if codes:
        parts.append(", ".join(codes))
    return "; ".join(parts)


def _link(node: Node, base: Path) -> str:
    try:
        path = Path(os.path.relpath(node.path, base)).as_posix()
    except ValueError:
        path = Path(node.path).as_posix()
    return f"{path}#L{node.line}"


def _tooltip(hazards: list[Hazard], fallback: str) -> str:
    return " | ".join(f"{h.code}: {h.message}" for h in hazards) or fallback


# --- JSON -------------------------------------------------------------------------------------


def _relative(path: str, base: Path) -> str:
    try:
        relative = os.path.relpath(path, base)
    except ValueError:
        return Path(path).as_posix()
    return Path(path).as_posix() if relative.startswith("..") else Path(relative).as_posix()


def as_json(graph: Graph, base: Path) -> str:
    """The data behind the drawings; paths relative to ``base`` where they are under it."""

    def hazard(h: Hazard) -> dict:
        return {"code": h.code, "severity": h.severity, "family": family_of(h), "message": h.message,
                "path": _relative(h.path, base), "line": h.line}

    data = {
        "workflows": graph.workflows,
        "grouped_by_module": graph.grouped,
        "nodes": [
            {"id": n.id, "kind": n.kind, "name": n.name, "qualified": n.qualified, "module": n.module,
             "path": _relative(n.path, base), "line": n.line, "hazards": [hazard(h) for h in n.hazards]}
            for n in graph.nodes
        ],
        "edges": [
            {"from": e.source, "to": e.target, "kind": e.kind, "order": e.order, "path": _relative(e.path, base),
             "line": e.line,
             "column": e.column, "via": e.via, "calls": [{"line": start[1], "column": start[2]} for start, _ in e.calls],
             "hazards": [hazard(h) for h in e.hazards]}
            for e in graph.edges
        ],
        "hazards": [hazard(h) for h in graph.hazards],
    }
    return json.dumps(data, indent=2) + "\n"


# --- Mermaid ----------------------------------------------------------------------------------


def _mermaid_text(text: str) -> str:
    return text.replace('"', "#quot;").replace("\n", " ")


def as_mermaid(graph: Graph, base: Path) -> str:
    lines = ["flowchart TD"]
    shapes = {"workflow": ('(["', '"])'), "step": ('["', '"]'), "helper": ('("', '")')}

    def node_line(node: Node, indent: str) -> str:
        opening, closing = shapes[node.kind]
        return f"{indent}{node.id}{opening}{_mermaid_text(_label(node))}{closing}"

    if graph.grouped:
        modules: dict[str, list[Node]] = {}
        for node in graph.nodes:
            modules.setdefault(node.module, []).append(node)
        for index, (module, nodes) in enumerate(modules.items(), start=1):
            lines.append(f'  subgraph m{index}["{_mermaid_text(module)}"]')
            lines.extend(node_line(node, "    ") for node in nodes)
            lines.append("  end")
    else:
        lines.extend(node_line(node, "  ") for node in graph.nodes)
    arrows = {"awaited": "-->", "concurrent": "==>", "value": "-.->"}
    link_styles: list[str] = []
    for number, edge in enumerate(graph.edges):
        label = _edge_label(edge)
        arrow = arrows[edge.kind]
        lines.append(f'  {edge.source} {arrow}|"{_mermaid_text(label)}"| {edge.target}' if label else
                     f"  {edge.source} {arrow} {edge.target}")
        family = _family(edge.hazards)
        if family is not None:
            link_styles.append(f"  linkStyle {number} stroke:{colours()[family]},stroke-width:3px")
    lines.extend(link_styles)
    for name, colour in colours().items():
        lines.append(f"  classDef {name.replace('-', '_')} stroke:{colour},stroke-width:3px,color:{colour}")
    for node in graph.nodes:
        family = _family(node.hazards)
        if family is not None:
            lines.append(f"  class {node.id} {family.replace('-', '_')}")
        tip = _mermaid_text(_tooltip(node.hazards, node.qualified))
        lines.append(f'  click {node.id} "{_link(node, base)}" "{tip}"')
    lines.append('  subgraph legend["Legend"]')
    for index, (name, text) in enumerate(legend(), start=1):
        lines.append(f'    legend{index}["{_mermaid_text(text)}"]')
        lines.append(f"    class legend{index} {name.replace('-', '_')}")
    lines.append('    legend_edges["solid: awaited; bold: in a task of its own; dashed: through a value"]')
    lines.append("  end")
    return "\n".join(lines) + "\n"


# --- Graphviz DOT -----------------------------------------------------------------------------


def _dot(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def as_dot(graph: Graph, base: Path) -> str:
    lines = ["digraph steplint {", "  rankdir=TB;", '  node [fontname="Helvetica"];', '  edge [fontname="Helvetica"];']
    shapes = {"workflow": "ellipse", "step": "box", "helper": "box"}

    def node_line(node: Node, indent: str) -> str:
        family = _family(node.hazards)
        attributes = {
            "label": _label(node), "shape": shapes[node.kind], "URL": _link(node, base),
            "tooltip": _tooltip(node.hazards, node.qualified),
        }
        style = ["rounded"] if node.kind == "helper" else []
        if family is not None:
            attributes["color"] = colours()[family]
            attributes["fontcolor"] = colours()[family]
            attributes["penwidth"] = "2.5"
        if node.kind == "workflow":
            style.append("bold")
        text = ", ".join(f"{key}={_dot(value)}" for key, value in attributes.items())
        if style:
            text += f", style={_dot(','.join(style))}"
        return f"{indent}{node.id} [{text}];"

    if graph.grouped:
        modules: dict[str, list[Node]] = {}
        for node in graph.nodes:
            modules.setdefault(node.module, []).append(node)
        for index, (module, nodes) in enumerate(modules.items(), start=1):
            lines.append(f"  subgraph cluster_{index} {{")
            lines.append(f"    label={_dot(module)};")
            lines.extend(node_line(node, "    ") for node in nodes)
            lines.append("  }")
    else:
        lines.extend(node_line(node, "  ") for node in graph.nodes)
    styles = {"awaited": "solid", "concurrent": "bold", "value": "dashed"}
    for edge in graph.edges:
        attributes = {"style": styles[edge.kind], "tooltip": _tooltip(edge.hazards, EDGE_KINDS[edge.kind])}
        label = _edge_label(edge)
        if label:
            attributes["label"] = label
        family = _family(edge.hazards)
        if family is not None:
            attributes["color"] = colours()[family]
            attributes["fontcolor"] = colours()[family]
            attributes["penwidth"] = "2.5"
        lines.append(f"  {edge.source} -> {edge.target} [{', '.join(f'{k}={_dot(v)}' for k, v in attributes.items())}];")
    lines.append("  subgraph cluster_legend {")
    lines.append('    label="Legend"; fontname="Helvetica";')
    for index, (name, text) in enumerate(legend(), start=1):
        lines.append(f"    legend{index} [label={_dot(text)}, shape=box, color={_dot(colours()[name])}, "
                     f"fontcolor={_dot(colours()[name])}, penwidth=2.5];")
    lines.append('    legend_edges [label="solid: awaited\\nbold: in a task of its own\\ndashed: through a value", shape=note];')
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


# --- HTML -------------------------------------------------------------------------------------


def svg_of(dot: str) -> str | None:
    """The SVG Graphviz draws for ``dot`` (None when Graphviz is not installed)."""
    executable = shutil.which("dot")
    if executable is None:
        return None
    done = subprocess.run([executable, "-Tsvg"], input=dot, capture_output=True, text=True, timeout=120)
    return done.stdout if done.returncode == 0 else None


def as_html(graph: Graph, base: Path) -> str:
    title = "steplint graph: " + (", ".join(graph.workflows) or "no workflow")
    svg = svg_of(as_dot(graph, base))
    if svg is not None:
        body = svg[svg.index("<svg"):]
    else:
        body = (
            "<p>Graphviz is not installed here, so this page holds the Mermaid source: paste it into a Markdown "
            "file on GitHub, or install Graphviz (<code>apt-get install graphviz</code>) and run the command again.</p>"
            f"<pre class=\"mermaid\">{html.escape(as_mermaid(graph, base))}</pre>"
        )
    rows = "".join(
        f"<tr><td>{html.escape(h.code)}</td><td>{html.escape(h.path)}:{h.line}</td><td>{html.escape(h.message)}</td></tr>"
        for h in [*(h for n in graph.nodes for h in n.hazards), *(h for e in graph.edges for h in e.hazards), *graph.hazards]
    )
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title>"
        "<style>body{font-family:Helvetica,Arial,sans-serif;margin:2em}table{border-collapse:collapse}"
        "td{border:1px solid #ccc;padding:4px 8px;vertical-align:top}</style></head><body>"
        f"<h1>{html.escape(title)}</h1>{body}"
        f"<h2>Hazards</h2><table>{rows}</table></body></html>\n"
    )


FORMATS = {"mermaid": as_mermaid, "dot": as_dot, "html": as_html, "json": as_json}
