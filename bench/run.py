"""Time steplint against ruff, flake8, Fixit and a libcst parse, interleaved, in one run.

Every repetition runs every method once, in turn, so that load on the machine
hits all of them alike; the table shows medians, ratios and the peak resident
memory of the largest process of each method (``os.wait4``). ``bash
bench/run.sh`` installs the peers into bench/.env and calls this.

    python bench/run.py --bin bench/.env/bin [--repeat 3] [--with-fixit] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import synth  # noqa: E402  (bench/synth.py, next to this file)

# The real Python tree of microsoft/agent-framework (../shared/corpora/README: 1,163 files, MIT).
MAF_REAL_ARCHIVE = HERE.parent.parent / "shared" / "corpora" / "agent-framework-python.tar.gz"
# A module most of the tree imports, and a sample nothing imports: what "one file changed" edits.
MAF_REAL_HUB = "packages/core/agent_framework/_types.py"
MAF_REAL_LEAF = "samples/03-workflows/functional/basic_pipeline.py"
# Five files of a commit, as pre-commit passes them.
MAF_REAL_COMMIT = [
    "packages/core/agent_framework/_workflows/_functional.py",
    "packages/core/agent_framework/_workflows/_workflow.py",
    "packages/core/agent_framework/_agents.py",
    "packages/core/agent_framework/_tools.py",
    MAF_REAL_LEAF,
]


@dataclass
class Method:
    name: str
    command: list[str]
    before: object = None  # a callable run (untimed) before each timing
    times: list[float] = field(default_factory=list)
    peaks_kb: list[int] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def peak_mb(self) -> float:
        return max(self.peaks_kb) / 1024


@dataclass
class Corpus:
    name: str
    path: str
    files: int
    lines: int
    methods: list[Method] = field(default_factory=list)

    def method(self, name: str) -> Method | None:
        return next((m for m in self.methods if m.name == name and m.times), None)


def timed(command: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB, the largest process of the tree) of one command."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        process.returncode = code
        if code not in (0, 1):
            errors.seek(0)
            text = errors.read().decode(errors="replace")
            raise SystemExit(f"bench: {' '.join(command)} failed ({code}):\n{text[-2000:]}")
    return elapsed, usage.ru_maxrss


def count_lines(path: str) -> tuple[int, int]:
    files = lines = 0
    for directory, dirnames, filenames in os.walk(path):
        dirnames[:] = [d for d in dirnames if d not in ("site-packages", "__pycache__") and not d.startswith(".")]
        for name in filenames:
            if name.endswith(".py"):
                files += 1
                with open(os.path.join(directory, name), "rb") as handle:
                    lines += handle.read().count(b"\n")
    return files, lines


def tool(bin_dir: str, name: str) -> str | None:
    for folder in (bin_dir, os.path.dirname(sys.executable)):
        candidate = os.path.join(folder, name)
        if os.path.exists(candidate):
            return candidate
    return shutil.which(name)


def build(args: argparse.Namespace) -> list[Corpus]:
    out = Path(args.corpus_dir)
    out.mkdir(parents=True, exist_ok=True)
    python = tool(args.bin, "python") or sys.executable
    steplint = tool(args.bin, "steplint") or "steplint"
    ruff, flake8, fixit = tool(args.bin, "ruff"), tool(args.bin, "flake8"), tool(args.bin, "fixit")
    corpora: list[Corpus] = []
    wanted = [("synth", args.files), ("maf", args.maf_files)]
    for kind, count in wanted:
        path = str(out / kind)
        synth.generate(path, kind, count)
        corpora.append(Corpus(kind, path, *count_lines(path)))
    if args.maf_real and Path(args.maf_real).is_file():
        path = out / "maf-real"
        if not (path / ".unpacked").is_file():
            shutil.rmtree(path, ignore_errors=True)
            path.mkdir(parents=True)
            subprocess.run(["tar", "-xzf", args.maf_real, "-C", str(path)], check=True)
            (path / ".unpacked").write_text(args.maf_real)
        corpora.append(Corpus("maf-real", str(path), *count_lines(str(path))))
    if not args.quick:
        stdlib = subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"], capture_output=True, text=True
        ).stdout.strip() or sysconfig.get_paths()["stdlib"]
        corpora.insert(0, Corpus("stdlib", stdlib, *count_lines(stdlib)))
    time.sleep(2.1)  # let the new files' mtimes age past the cache's racy window
    for corpus in corpora:
        cache = str(out / f".cache-{corpus.name}")
        base = [steplint, corpus.path, "--isolated", "--exit-zero", "--statistics", "--cache-dir", cache]
        if args.jobs:
            base += ["--jobs", str(args.jobs)]
        corpus.methods.append(Method("steplint cold", base, before=lambda c=cache: shutil.rmtree(c, ignore_errors=True)))
        if corpus.name == "synth":
            corpus.methods.append(Method("steplint warm", base))
            touched = os.path.join(corpus.path, synth.PACKAGE, f"mod_{corpus.files // 2:05d}.py")
            corpus.methods.append(Method("steplint one file changed", base, before=lambda p=touched: _touch(p)))
        if corpus.name == "maf-real":
            hub, leaf = (os.path.join(corpus.path, name) for name in (MAF_REAL_HUB, MAF_REAL_LEAF))
            corpus.methods.append(Method("steplint warm", base))
            corpus.methods.append(Method("steplint hub module changed", base, before=lambda p=hub: _touch(p)))
            corpus.methods.append(Method("steplint leaf changed", base, before=lambda p=leaf: _touch(p)))
            commit = [os.path.join(corpus.path, name) for name in MAF_REAL_COMMIT]
            corpus.methods.append(Method("steplint 5 files, warm (pre-commit)", [*base[:1], *commit, *base[2:]]))
            corpus.methods.append(Method("steplint --version", [steplint, "--version"]))
            corpus.methods.append(Method("steplint one small file, no cache",
                                         [steplint, leaf, "--isolated", "--exit-zero", "--no-cache"]))
        if ruff:
            corpus.methods.append(Method("ruff --select F401 --no-cache", [ruff, "check", "--select", "F401", "--no-cache", "-q", "--exit-zero", corpus.path]))
        if flake8 and corpus.name not in ("stdlib", "maf-real") and not args.quick:
            corpus.methods.append(Method("flake8 --select F401 -j 1", [flake8, "--select", "F401", "-j", "1", "--exit-zero", corpus.path]))
        if fixit and corpus.name == "synth" and args.with_fixit:
            corpus.methods.append(Method("fixit (one rule)", [fixit, "--rules", "fixit.rules.no_redundant_fstring", "lint", corpus.path]))
        if corpus.name != "stdlib" or args.stdlib_libcst:
            corpus.methods.append(Method("libcst parse, one process", [python, str(HERE / "libcst_parse.py"), corpus.path]))
    return corpora


_TOUCHES = [0]


def _touch(path: str) -> None:
    """A real edit: one more comment line, so the file's bytes (and summary) change."""
    _TOUCHES[0] += 1
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(f"# bench edit {_TOUCHES[0]}\n")


def run(corpora: list[Corpus], repeat: int) -> None:
    for rep in range(repeat):
        for corpus in corpora:
            for method in corpus.methods:
                if callable(method.before):
                    method.before()
                elapsed, peak = timed(method.command)
                method.times.append(elapsed)
                method.peaks_kb.append(peak)
                print(f"[{rep + 1}/{repeat}] {corpus.name:6} {method.name:32} {elapsed:8.3f} s {peak / 1024:7.1f} MB", file=sys.stderr)


def table(corpora: list[Corpus]) -> str:
    rows = ["| corpus | method | median s | vs ruff | vs libcst parse | peak MB |", "|---|---|---|---|---|---|"]
    for corpus in corpora:
        ruff = corpus.method("ruff --select F401 --no-cache")
        parse = corpus.method("libcst parse, one process")
        for method in corpus.methods:
            if not method.times:
                continue
            vs_ruff = f"{method.median / ruff.median:.2f}x" if ruff else "-"
            vs_parse = f"{method.median / parse.median:.3f}x" if parse else "-"
            label = f"{corpus.name} ({corpus.files} files, {corpus.lines // 1000}k lines)"
            rows.append(f"| {label} | {method.name} | {method.median:.3f} | {vs_ruff} | {vs_parse} | {method.peak_mb:.0f} |")
    return "\n".join(rows) + "\n"


def goals(corpora: list[Corpus]) -> str:
    by_name = {c.name: c for c in corpora}
    lines = []

    def ratio(corpus: str, method: str, reference: str) -> float | None:
        c = by_name.get(corpus)
        if c is None:
            return None
        m, r = c.method(method), c.method(reference)
        return m.median / r.median if m and r else None

    def goal(label: str, value: float | None, limit: float, text: str) -> None:
        if value is None:
            lines.append(f"- {label}: not measured in this run")
        else:
            verdict = "met" if value <= limit else f"NOT met (gap {value / limit:.1f}x)"
            lines.append(f"- {label}: {text} = {value:.2f}, goal <= {limit}: {verdict}")

    ruff, parse = "ruff --select F401 --no-cache", "libcst parse, one process"
    goal("P1", ratio("stdlib", "steplint cold", ruff), 1.0, "stdlib cold / ruff")
    goal("P2", ratio("synth", "steplint cold", parse), 0.6, "synth cold / libcst parse")
    flake8 = ratio("synth", "flake8 --select F401 -j 1", "steplint cold")
    fixit = ratio("synth", "fixit (one rule)", "steplint cold")
    if flake8 is not None:
        lines.append(f"  - flake8 -j 1 / steplint cold = {flake8:.1f}x (goal >= 3x)")
    if fixit is not None:
        lines.append(f"  - Fixit / steplint cold = {fixit:.1f}x (goal >= 13x)")
    goal("P3", ratio("synth", "steplint warm", ruff), 2.0, "synth warm / ruff")
    goal("P4", ratio("synth", "steplint one file changed", ruff), 3.0, "synth one file changed / ruff")
    goal("P5", ratio("maf", "steplint cold", parse), 0.2, "maf cold / libcst parse")
    goal("R1", ratio("maf-real", "steplint cold", parse), 0.1, "maf-real cold / libcst parse")
    goal("R2", ratio("maf-real", "steplint cold", ruff), 6.0, "maf-real cold / ruff")
    goal("R3", ratio("maf-real", "steplint warm", ruff), 1.5, "maf-real warm / ruff")
    goal("R4", ratio("maf-real", "steplint hub module changed", ruff), 3.0, "maf-real hub module changed / ruff")
    goal("R5", ratio("maf-real", "steplint leaf changed", ruff), 3.0, "maf-real leaf changed / ruff")
    real = by_name.get("maf-real")

    def seconds(name: str) -> float | None:
        method = real.method(name) if real else None
        return method.median if method and method.times else None

    goal("R6", seconds("steplint 5 files, warm (pre-commit)"), 0.3, "maf-real 5 files warm, wall s")
    goal("R7", seconds("steplint --version"), 0.06, "steplint --version, s")
    goal("R8", seconds("steplint one small file, no cache"), 0.15, "one small file without a cache, s")
    if real is not None:
        peak = real.method("steplint cold")
        if peak and peak.times:
            lines.append(f"- R9: maf-real cold peak {peak.peak_mb:.0f} MB, goal <= 300 MB: "
                         f"{'met' if peak.peak_mb <= 300 else 'NOT met'}")
    synth_corpus = by_name.get("synth")
    if synth_corpus is not None:
        peak = max((m.peak_mb for m in synth_corpus.methods if m.name.startswith("steplint") and m.times), default=None)
        if peak is not None:
            lines.append(f"- memory: synth peak {peak:.0f} MB, goal <= 300 MB: {'met' if peak <= 300 else 'NOT met'}")
    return "\n".join(lines) + "\n"


def editor_latency(args: argparse.Namespace, corpus: Corpus, label: str, file: str, where: str = "spread") -> str:
    """bench/lsp_latency.py against the installed server, on one file of maf-real.

    E1, the goal, is the hub module (4,134 lines) with edits spread over it (``--where spread``:
    the server remakes only what an edit reaches, so edits near the top cost most); E2 is a
    workflow sample, what someone writing workflows edits, for scale; E3 is the hub module with
    every edit at its end, the cheapest case, also for scale.
    """
    python = tool(args.bin, "python") or sys.executable
    steplint = tool(args.bin, "steplint") or "steplint"
    done = subprocess.run(
        [python, str(HERE / "lsp_latency.py"), "--server", f"{steplint} lsp", "--root", corpus.path,
         "--edits", str(args.lsp_edits), "--where", where, os.path.join(corpus.path, file)],
        capture_output=True, text=True, timeout=1800,
    )
    if done.returncode != 0:
        return f"- {label}: editor latency not measured: {done.stderr.strip().splitlines()[-1:]}\n"
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    met = summary["median_ms"] <= 50 and summary["p95_ms"] <= 150
    verdict = ("met" if met else "NOT met") if label == "E1" else "for scale, not the goal"
    return (f"- {label}: didChange -> publishDiagnostics on {file}, {summary['edits']} edits ({where}), debounce "
            f"excluded: median {summary['median_ms']:.0f} ms, p95 {summary['p95_ms']:.0f} ms (goal <= 50 / <= 150): "
            f"{verdict}\n")


def machine() -> str:
    model = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            model = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), model)
    except OSError:
        pass
    load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
    return (
        f"{os.cpu_count()} CPUs ({model}), Python {platform.python_version()}, {platform.system()} {platform.release()}; "
        f"load average at the end {', '.join(f'{x:.2f}' for x in load)}\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.dirname(sys.executable), help="folder with steplint, ruff, flake8, fixit")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--files", type=int, default=2000, help="synth corpus size")
    parser.add_argument("--maf-files", type=int, default=1140, help="maf-like corpus size")
    parser.add_argument("--jobs", type=int, default=0, help="steplint --jobs (default: steplint's own)")
    parser.add_argument("--with-fixit", action="store_true", help="also time Fixit (slow)")
    parser.add_argument("--stdlib-libcst", action="store_true", help="also parse the standard library with libcst")
    parser.add_argument("--quick", action="store_true", help="a smoke run: tiny corpora, one repetition, no stdlib")
    # Outside the repository: Fixit (like git) skips what .gitignore lists, and bench/corpus/ is listed.
    parser.add_argument("--corpus-dir", default=os.path.join(tempfile.gettempdir(), "steplint-bench-corpus"))
    parser.add_argument("--markdown", help="also write the table and goals to this file")
    parser.add_argument("--maf-real", default=str(MAF_REAL_ARCHIVE) if MAF_REAL_ARCHIVE.is_file() else "",
                        help="the agent-framework tree's archive (default: ../shared/corpora/, when there; "
                        "'' leaves it out; --quick leaves it out unless given)")
    parser.add_argument("--only", default="", help="comma-separated corpora to run (stdlib, synth, maf, maf-real)")
    parser.add_argument("--lsp-edits", type=int, default=50, help="didChange edits timed on maf-real (0: none)")
    args = parser.parse_args(argv)
    if args.quick:
        args.files, args.maf_files, args.repeat = min(args.files, 40), min(args.maf_files, 30), 1
        if "--maf-real" not in " ".join(argv if argv is not None else sys.argv):
            args.maf_real = ""
    corpora = build(args)
    if args.only:
        corpora = [corpus for corpus in corpora if corpus.name in args.only.split(",")]
    run(corpora, args.repeat)
    report = f"Machine: {machine()}\n{table(corpora)}\n{goals(corpora)}"
    real = next((corpus for corpus in corpora if corpus.name == "maf-real"), None)
    if real is not None and args.lsp_edits:
        report += editor_latency(args, real, "E1", MAF_REAL_HUB)
        report += editor_latency(args, real, "E2", MAF_REAL_LEAF)
        report += editor_latency(args, real, "E3", MAF_REAL_HUB, where="end")
    print(report)
    if args.markdown:
        Path(args.markdown).write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
