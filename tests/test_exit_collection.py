"""The command line leaves what it made to the process's exit; the API (and any in-process caller) does not.

Put back as the run ended, the default thresholds made the next allocation scan every object the run had made, and
the interpreter's collection at exit scanned the cycles the analysis leaves: about 0.4 s of a 4 s run on
agent-framework's tree, in a process that only prints its findings and ends.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

PROBE = """
import gc, sys
from steplint.core.gc_pause import BATCH_THRESHOLDS
from steplint.frontends import cli
try:
    cli.main()
except SystemExit:
    pass
print(gc.get_threshold() == BATCH_THRESHOLDS, gc.get_freeze_count() > 10_000, file=sys.stderr)
"""


def _probe(*args: str) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE, "--isolated", "--no-cache", "-q", "--exit-zero", *args,
                           str(FIXTURES / "multimodule")], capture_output=True, text=True, timeout=120)
    return done.stderr.strip().splitlines()[-1]


def test_a_one_shot_run_leaves_its_objects_out_of_the_collectors_sight():
    assert _probe() == "True True"


def test_the_api_puts_the_thresholds_back_and_freezes_nothing():
    script = (
        "import gc, pathlib; from steplint.api import lint_paths, load_settings;"
        f"before = gc.get_threshold(); lint_paths([{str(FIXTURES / 'multimodule')!r}], load_settings(None, pathlib.Path('.'), isolated=True));"
        "print(gc.get_threshold() == before, gc.get_freeze_count())"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["True", "0"], done.stderr
