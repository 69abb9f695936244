"""The replay fuzzer's long mode (issue 27, item 6): more seeds, counts per invariant.

    python bench/replay_fuzz.py [first_seed] [count] [--storage-less] [--uninstall]

Runs each generated program under MAF alone and under the shim in each mode and
policy (tests/runtime/replay_fuzz.py) and prints the programs, runs, checks and
violations per invariant, with examples of violations (their seeds reproduce them).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "runtime"))

import replay_fuzz  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first_seed", nargs="?", type=int, default=0)
    parser.add_argument("count", nargs="?", type=int, default=200)
    parser.add_argument("--storage-less", action="store_true",
                        help="run each program without a checkpoint storage (pauses answered by response-only replays)")
    parser.add_argument("--uninstall", action="store_true",
                        help="uninstall() while the crashed run is in flight; the resume is installed again")
    options = parser.parse_args()
    first, count = options.first_seed, options.count
    warnings.simplefilter("ignore")
    started = time.perf_counter()
    tally = replay_fuzz.fuzz(range(first, first + count), storage_less=options.storage_less,
                             uninstall=options.uninstall)
    print(f"agent-framework-core {metadata.version('agent-framework-core')}, seeds {first}..{first + count - 1}"
          f"{', storage-less' if options.storage_less else ''}{', uninstalled midway' if options.uninstall else ''}, "
          f"{time.perf_counter() - started:.0f} s")
    print(tally.describe())


if __name__ == "__main__":
    main()
