"""A seconds-long run of the benchmark: the generator is deterministic and the runner prints its table."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import synth  # noqa: E402


def _digest(paths: list[str]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


def test_the_generator_is_deterministic_and_sized(tmp_path):
    first = synth.generate(str(tmp_path / "a"), "synth", 12)
    second = synth.generate(str(tmp_path / "b"), "synth", 12)
    assert len(first) == 12 and _digest(first) == _digest(second)
    assert all("agent_framework" in Path(p).read_text() for p in first[1:])
    mix = synth.generate(str(tmp_path / "maf"), "maf", 60)
    texts = [Path(p).read_text() for p in mix[1:]]
    with_maf = sum("agent_framework" in t for t in texts)
    with_steps = sum("@step" in t for t in texts)
    assert with_maf > len(texts) * 0.8 and 0 < with_steps < len(texts) * 0.3


def test_the_runner_prints_medians_ratios_and_goals(tmp_path):
    done = subprocess.run(
        [sys.executable, str(BENCH / "run.py"), "--quick", "--files", "12", "--maf-files", "12", "--corpus-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    for method in ("steplint cold", "steplint warm", "steplint one file changed", "libcst parse, one process"):
        assert f"| {method} |" in out
    assert "Machine:" in out and "- P2:" in out and "- memory:" in out


def test_the_editor_latency_bench_times_real_edits(tmp_path):
    """bench/lsp_latency.py drives the real `steplint lsp` and reports each edit's latency."""
    (tmp_path / "flow.py").write_text(
        "import agent_framework as maf\n\n\n@maf.step\nasync def inner(x):\n    return x\n\n\n"
        "@maf.step\nasync def outer(x):\n    return await inner(x)\n"
    )
    done = subprocess.run(
        [sys.executable, str(BENCH / "lsp_latency.py"), "--server", f"{sys.executable} -m steplint lsp",
         "--root", str(tmp_path), "--edits", "3", str(tmp_path / "flow.py")],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["edits"] == 3 and 0 <= summary["median_ms"] <= summary["max_ms"]


def test_the_editor_bench_edits_add_comments_all_over_the_file():
    """Spread edits change only comments (the code means the same), half of them moving the lines below."""
    import ast
    import importlib.util
    import random

    spec = importlib.util.spec_from_file_location("lsp_latency", BENCH / "lsp_latency.py")
    latency = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(latency)
    original = (BENCH / "run.py").read_text(encoding="utf-8")
    text, draw, touched = original, random.Random(1), set()
    for version in range(2, 22):
        before = text
        text = latency.edited(text, version, "spread", draw)
        assert text.count("\n") == before.count("\n") + version % 2
        touched.add(next(i for i, (a, b) in enumerate(zip(text.splitlines(), before.splitlines())) if a != b))
    assert ast.dump(ast.parse(text)) == ast.dump(ast.parse(original))
    assert max(touched) - min(touched) > original.count("\n") // 2  # not all at one end
    assert latency.edited("x = 1\n", 2, "end", draw) == "x = 1\n# edit 2\n"
