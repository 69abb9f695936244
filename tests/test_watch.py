"""``steplint --watch`` through the real tool: it lints, waits, lints again when a file changes (with the cache: only
the changed file is summarized again), and Ctrl-C ends it by SIGINT as it ends ruff."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cli_samples import nested, steplint

HEADER = "Found {} finding{}. Watching for file changes."


class Watching:
    """A running ``steplint --watch``, its stdout and stderr read line by line."""

    def __init__(self, project: Path, *args: str):
        environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "steplint", "--watch", *args, "."], cwd=project, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env=environment,
        )
        self.lines: queue.Queue = queue.Queue()
        for stream, name in ((self.process.stdout, "out"), (self.process.stderr, "err")):
            threading.Thread(target=self._read, args=(stream, name), daemon=True).start()

    def _read(self, stream, name: str) -> None:
        for line in stream:
            self.lines.put((name, line.rstrip("\n")))

    def until(self, predicate, timeout: float = 90) -> list[tuple[str, str]]:
        """The lines read until one satisfies ``predicate`` (that one included)."""
        seen = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                item = self.lines.get(timeout=0.5)
            except queue.Empty:
                assert self.process.poll() is None, f"steplint --watch ended: {seen}"
                continue
            seen.append(item)
            if predicate(item[1]):
                return seen
        raise AssertionError(f"timed out; read: {seen}")

    def round(self) -> list[tuple[str, str]]:
        """A round's lines, up to both its header (stdout) and its ``-v`` counts (stderr), in either order."""
        lines = self.until(lambda line: "Watching for file changes" in line or "summarized" in line)
        wanted = "summarized" if "Watching" in lines[-1][1] else "Watching for file changes"
        return lines + self.until(lambda line: wanted in line)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'w'\nversion = '0'\n")
    (tmp_path / "clean.py").write_text("x = 1\n")
    (tmp_path / "other.py").write_text("y = 2\n")
    return tmp_path


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_watch_lints_again_on_change_and_stops_on_sigint(project):
    watching = Watching(project, "-v")
    try:
        first = watching.round()
        out = [line for stream, line in first if stream == "out"]
        assert out[0] == "Starting linter in watch mode..."
        assert out[-1].endswith("] " + HEADER.format(0, "s")) and out[-1].startswith("[")
        (project / "clean.py").write_text(nested())
        second = watching.round()
        assert ("out", "File change detected...") in second
        assert any(line.endswith(HEADER.format(1, "")) for _, line in second)
        # The findings follow the header on stdout, the counts go to stderr: read by two threads, the finding may
        # already be among the round's lines or still to come.
        findings = [line for stream, line in second if stream == "out" and line.startswith("clean.py:")]
        finding = findings[0] if findings else watching.until(lambda line: line.startswith("clean.py:"))[-1][1]
        assert finding.startswith("clean.py:9:18: STP001 ")
        counts = next(line for _, line in second if "summarized" in line)
        # The cache: of the two files, only the edited one is summarized again.
        assert ", 1 summarized, 1 reported, 1 analyzed" in counts, counts
        # No closing summary in watch mode: the header says the count.
        (project / "clean.py").write_text("x = 1\n")
        third = watching.round()
        assert any(line.endswith(HEADER.format(0, "s")) for _, line in third)
        assert not any("All checks passed" in line or line.startswith("Found ") for _, line in first + second + third)
    finally:
        code = watching.stop()
    assert code == -signal.SIGINT  # ended by the signal, as ruff is (a shell shows 130)
    rest = []
    while not watching.lines.empty():
        rest.append(watching.lines.get()[1])
    assert not any("Traceback" in line or "KeyboardInterrupt" in line for line in rest), rest


def test_watch_refuses_what_it_cannot_do(project):
    done = steplint("--watch", "--add-noqa", ".", cwd=project)
    assert done.returncode == 2 and "steplint: error: --watch cannot be combined with --add-noqa" in done.stderr
    done = steplint("--watch", "-", cwd=project, stdin="x = 1\n")
    assert done.returncode == 2 and "--watch lints files and waits for them to change: it cannot read standard input" \
        in done.stderr
