"""The runtime shim's overhead in instructions: deterministic where bench/shim_overhead.py's times are not.

    python bench/shim_instructions.py [--steps 300] [--storage none|memory] [--arg int|model]
        [--can-pause] [--modes alone,off,on] [--site .venvs/maf-wheel-1.19.0]

CPU time on a shared machine moves by several percent between identical runs (other processes share
the caches and the memory bus), which is the size of the goals it is meant to check. Valgrind's
instruction count of the same run moves by well under one percent. For each variant the workflow of
bench/shim_overhead.py (``--shape nested``: half the step calls nested) runs once and three times in
a child process under ``valgrind --tool=cachegrind --cache-sim=no``; the difference, halved, is one
run, so imports and start-up cancel out. Printed: instructions per step call, and the ratio to MAF
alone.

An instruction count is not a time: it leaves out cache misses and the memory system, so it
complements the timed bench (same workflow, same variants), it does not replace it. ``--site`` puts
a release installed alone (tests/runtime/release_sites.py) first on the child's path.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHILD = """
import sys
sys.path.insert(0, {here!r})
import shim_overhead
from steplint import runtime_shim
steps, storage, mode, workflow, arg, runs = sys.argv[1:7]
shim_overhead.settings.update(steps=int(steps), arg=arg, shape="nested", workflow=workflow)
if mode != "alone":
    runtime_shim.install(mode="scoped", on_replay_mismatch=None if mode == "on" else "off")
for _ in range(int(runs)):
    shim_overhead.time_one_run(storage, "run")
"""
REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def child_environment(options: argparse.Namespace) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": options.site} if options.site else dict(os.environ)


def instructions(options: argparse.Namespace, mode: str, runs: int) -> int:
    workflow = "can pause" if options.can_pause else "cannot pause"
    completed = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-c", CHILD.format(here=str(HERE)),
         str(options.steps), options.storage, mode, workflow, options.arg, str(runs)],
        capture_output=True, text=True, env=child_environment(options), check=False,
    )
    found = REFS.search(completed.stderr)
    if completed.returncode != 0 or found is None:
        raise SystemExit(f"the {mode} run failed ({completed.returncode}):\n{completed.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--storage", choices=["none", "memory"], default="memory")
    parser.add_argument("--arg", choices=["int", "model"], default="int")
    parser.add_argument("--can-pause", action="store_true", help="the workflow whose module names request_info")
    parser.add_argument("--modes", default="alone,off,on", help="alone (MAF), off (scoped, no verification), on")
    parser.add_argument("--site", default="", help="a folder put first on the child's path (another release)")
    options = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    per_step = {}
    for mode in options.modes.split(","):
        once, thrice = instructions(options, mode, 1), instructions(options, mode, 3)
        per_step[mode] = (thrice - once) / 2 / options.steps
    version = subprocess.run(
        [sys.executable, "-c", "from importlib import metadata; print(metadata.version('agent-framework-core'))"],
        capture_output=True, text=True, env=child_environment(options), check=True,
    ).stdout.strip()
    print(f"agent-framework-core {version}, {options.steps} step calls (half nested), {options.arg} arguments, "
          f"storage={options.storage}, workflow {'can' if options.can_pause else 'cannot'} pause")
    alone = per_step.get("alone")
    for mode, count in per_step.items():
        ratio = f"  {count / alone:.3f}x ({count - alone:+,.0f})" if alone and mode != "alone" else ""
        print(f"  {mode:<6} {count:12,.0f} instructions per step call{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
