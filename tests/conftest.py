import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

# Tests import their shared helpers from this folder, and those of tests/runtime that the matrix shares
# (release_sites: tests/runtime also runs alone in each release's environment, where only it is on the path).
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent / "runtime"))
os.environ.setdefault("STEPLINT_TEST_ROOT", str(ROOT))


def pytest_collection_modifyitems(items) -> None:
    # The release matrix runs whole suites in subprocesses, minutes each: started first (tests/run.sh's worksteal
    # hands the short tests to whichever worker is free), no release is left to run alone at the end.
    items.sort(key=lambda item: item.path.name != "test_runtime_matrix.py")
