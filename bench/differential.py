"""The differential tester's long mode: thousands of generated programs, counts per family.

Programs run on the real agent-framework-core under the tracer (tests/differential/) and steplint
lints them; every disagreement is counted by family, kind (false positive / false negative), rule
and shape, and marked known (tests/differential/known_gaps.py) or NEW. ``--shrink`` shrinks one
example of each (kind, rule, shape) to a minimal program and writes it, with ``# expect:``
comments, as a fixture folder under ``--out``.

    python bench/differential.py [--programs 3000] [--first-seed 0] [--batch 300] [--jobs 2]
        [--release 1.18.0 | --python PATH --target-version 1.18] [--shrink] [--out DIR]

The interpreter that runs the programs only needs agent-framework-core; steplint runs from the
interpreter running this script. ``--release`` runs them on another release of agent-framework-core
(installed alone under .venvs/, first on the path of this interpreter) and lints for it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "tests" / "runtime"))

from differential.generator import generate  # noqa: E402
from differential.known_gaps import DOC_SANCTIONED, KNOWN_GAPS  # noqa: E402
from differential.oracle import Disagreement, Toolchain, check_batch  # noqa: E402
from differential.shrink import shrink, write_fixture  # noqa: E402


def main() -> int:
    options = _parser().parse_args()
    if options.release:
        tools = Toolchain.on_release(options.release)
    else:
        tools = Toolchain(python=options.python, target_version=options.target_version)
    started = time.perf_counter()
    disagreements: list[Disagreement] = []
    broken: dict[str, str] = {}
    programs = {}
    seeds = range(options.first_seed, options.first_seed + options.programs)
    with tempfile.TemporaryDirectory(prefix="steplint-differential-") as scratch:
        for start in range(0, len(seeds), options.batch):
            batch = [generate(seed) for seed in seeds[start:start + options.batch]]
            root = Path(scratch) / f"batch{start}"
            found, failed = check_batch(root, batch, tools, options.jobs)
            disagreements += found
            broken.update(failed)
            programs.update({program.name: program for program in batch if any(d.program == program.name for d in found)})
            print(f"{start + len(batch)} programs, {len(disagreements)} disagreements, {time.perf_counter() - started:.0f} s",
                  file=sys.stderr)
    _print_counts(len(seeds), disagreements, broken, time.perf_counter() - started)
    if options.shrink:
        _shrink_one_each(programs, disagreements, tools, Path(options.out))
    return 1 if broken else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=3000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=300, help="programs per steplint run and tracer batch")
    parser.add_argument("--jobs", type=int, default=2, help="tracer processes per batch")
    parser.add_argument("--python", default=sys.executable, help="the interpreter with agent-framework-core")
    parser.add_argument("--target-version", default=None, help="steplint's --target-version (the release --python has)")
    parser.add_argument("--release", default=None, help="run on this agent-framework-core release (e.g. 1.18.0) instead")
    parser.add_argument("--shrink", action="store_true", help="shrink one example of each disagreement")
    parser.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "steplint-differential"))
    return parser


def _print_counts(programs: int, disagreements: list[Disagreement], broken: dict[str, str], seconds: float) -> None:
    with_any = len({d.program for d in disagreements})
    print(f"programs: {programs} ({len(broken)} did not run), with a disagreement: {with_any}, "
          f"disagreements: {len(disagreements)}, {seconds:.0f} s")
    families = Counter((d.family, d.kind) for d in disagreements)
    print("\n| family | false positives | false negatives |\n|---|---|---|")
    for family in sorted({family for family, _ in families}):
        print(f"| {family} | {families[family, 'false positive']} | {families[family, 'false negative']} |")
    shapes = Counter((d.family, d.kind, d.rule, d.shape) for d in disagreements)
    print("\n| family | kind | rule | shape | count | known |\n|---|---|---|---|---|---|")
    for (family, kind, rule, shape), count in sorted(shapes.items()):
        known = "yes" if (kind, rule, shape) in KNOWN_GAPS else "doc" if (kind, rule, shape) in DOC_SANCTIONED else "NEW"
        print(f"| {family} | {kind} | {rule} | {shape} | {count} | {known} |")
    for name, error in sorted(broken.items())[:3]:
        print(f"\n{name} did not run:\n{error}")


def _shrink_one_each(programs: dict, disagreements: list[Disagreement], tools: Toolchain, out: Path) -> None:
    first: dict[tuple[str, str, str], Disagreement] = {}
    for disagreement in disagreements:
        first.setdefault((disagreement.kind, disagreement.rule, disagreement.shape), disagreement)
    for disagreement in first.values():
        small, trace = shrink(programs[disagreement.program], disagreement, tools)
        folder = write_fixture(small, trace, disagreement, out)
        print(f"\n### {disagreement.describe()} -> {folder}")
        for path, text in small.files.items():
            if text.strip():
                print(f"# {path}\n{text}")


if __name__ == "__main__":
    raise SystemExit(main())
