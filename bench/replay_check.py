"""Milliseconds per checkpoint of steplint.replay.check_checkpoints on the suite's workflow (issue 30: <= 50 ms).

The original code of tests/runtime/replay_suite.py crashes in its 11th call, leaving 10 checkpoints; the
check replays every one against an edited copy (the module-constant edit, which takes the longest path:
served values, live calls, a stale digest), without and with a baseline (the baseline is one process per
check, reported apart). Usage: python bench/replay_check.py [repeats]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "runtime"))

from replay_suite import crashed_run, imported, write_code  # noqa: E402

from steplint.replay import check_checkpoints  # noqa: E402


def main(repeats: int) -> None:
    root = Path(tempfile.mkdtemp(prefix="steplint-bench-replay-"))
    old, new, storage, log = root / "old", root / "new", root / "checkpoints", root / "log" / "steps.txt"
    for folder in (old, new, log.parent):
        folder.mkdir()
    os.environ["STEPLINT_SUITE_LOG"] = str(log)
    write_code(old)
    write_code(new, "a module constant passed to a step")
    crashed_run(old, storage, log)
    definition = imported(new)
    count = len(list(storage.glob("*.json")))
    check_checkpoints(definition, storage)  # warm-up
    per_checkpoint = []
    for _ in range(repeats):
        started = time.perf_counter()
        check_checkpoints(definition, storage)
        per_checkpoint.append((time.perf_counter() - started) * 1000 / count)
    started = time.perf_counter()
    with_baseline = check_checkpoints(definition, storage, baseline=old)
    total = (time.perf_counter() - started) * 1000
    version = metadata.version("agent-framework-core")
    print(f"agent-framework-core {version}: {count} checkpoints")
    print(f"  new code only: {statistics.median(per_checkpoint):.1f} ms per checkpoint (median of {repeats})")
    print(f"  with --baseline: {total / count:.1f} ms per checkpoint, {total:.0f} ms in all "
          f"(the baseline process included); verdicts {sorted({v.verdict for v in with_baseline})}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeats", nargs="?", type=int, default=5)
    main(parser.parse_args().repeats)
