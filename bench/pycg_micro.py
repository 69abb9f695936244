"""PyCG's call-graph micro-benchmark, scored against ``steplint graph --calls`` (issue 32, item 4).

    python bench/pycg_micro.py PATH/TO/PyCG/micro-benchmark/snippets [--steplint 'python -m steplint']

Each snippet folder (``main.py``, sometimes more modules, and the expected ``callgraph.json``) is an
import root of its own; steplint's graph of it is compared edge by edge with the expected one.
Precision and recall are over the union of every snippet's edges (``caller -> callee`` pairs,
builtins included), and the snippets with a wrong or missing edge are listed, then the figures per
PyCG category (the snippets' first folder). PyCG names a method of a builtin type ``<**PyStr**>.join``
where steplint says ``<builtin>.str.join``: the expected names are translated before comparing.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


#: PyCG's names of the builtin types whose methods it reports.
PYCG_TYPES = {"PyStr": "str", "PyDict": "dict", "PyList": "list", "PySet": "set", "PyTuple": "tuple",
              "PyInt": "int", "PyFloat": "float", "PyBytes": "bytes", "PyBool": "bool"}


def steplint_name(name: str) -> str:
    return re.sub(r"^<\*\*(\w+)\*\*>", lambda m: f"<builtin>.{PYCG_TYPES.get(m[1], m[1])}", name)


def edges(graph: dict[str, list[str]]) -> set[tuple[str, str]]:
    return {(steplint_name(caller), steplint_name(callee)) for caller, callees in graph.items() for callee in callees}


def score(snippet: Path, command: list[str]) -> tuple[str, set, set]:
    expected = edges(json.loads((snippet / "callgraph.json").read_text()))
    completed = subprocess.run([*command, "graph", "--calls", "--format", "json", "--isolated", str(snippet)],
                               capture_output=True, text=True, check=False, cwd=snippet)
    try:
        found = edges(json.loads(completed.stdout))
    except json.JSONDecodeError:
        found = set()
    return str(snippet), expected, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("snippets", type=Path)
    parser.add_argument("--steplint", default=f"{sys.executable} -m steplint")
    parser.add_argument("--jobs", type=int, default=2)
    options = parser.parse_args()
    command = shlex.split(options.steplint)
    folders = sorted(p.parent for p in options.snippets.rglob("callgraph.json"))
    with ThreadPoolExecutor(options.jobs) as pool:
        results = list(pool.map(lambda folder: score(folder, command), folders))
    true_positive = expected_total = found_total = 0
    for name, expected, found in results:
        true_positive += len(expected & found)
        expected_total += len(expected)
        found_total += len(found)
        if expected != found:
            where = Path(name).relative_to(options.snippets)
            print(f"{where}: missing {sorted(expected - found)} extra {sorted(found - expected)}")
    precision = true_positive / found_total if found_total else 1.0
    recall = true_positive / expected_total if expected_total else 1.0
    exact = sum(1 for _, expected, found in results if expected == found)
    print(f"snippets: {len(results)}, exact: {exact}, edges expected: {expected_total}, found: {found_total}, "
          f"precision {precision:.3f}, recall {recall:.3f}")
    categories: dict[str, list[int]] = {}
    for name, expected, found in results:
        counts = categories.setdefault(Path(name).relative_to(options.snippets).parts[0], [0, 0, 0, 0, 0])
        counts[0] += 1
        counts[1] += expected == found
        counts[2] += len(expected)
        counts[3] += len(found)
        counts[4] += len(expected & found)
    print("category: snippets exact edges-expected found precision recall")
    for category, (snippets, exact, wanted, got, hit) in sorted(categories.items()):
        print(f"{category}: {snippets} {exact} {wanted} {got} {hit / got if got else 1.0:.3f} {hit / wanted if wanted else 1.0:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
