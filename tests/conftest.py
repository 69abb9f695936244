import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

# Tests import their shared helpers from this folder.
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("STEPLINT_TEST_ROOT", str(ROOT))
