"""Lint the judged real applications with one steplint executable and score it against verdicts.json.

Issue 28 item 6 and issue 29 ask that steplint be measured on public applications that use MAF's
functional workflow API, every finding judged by reading the code. The judgments live in
``verdicts.json`` next to this file (one entry per judged finding, plus the hazards steplint missed);
this script makes the measurement repeatable for any build of steplint:

    python bench/real_applications/measure.py --steplint .venv/bin/steplint
    python bench/real_applications/measure.py --steplint X --apps-root /work/realapps \\
        --corpus ../shared/corpora/agent-framework-python.tar.gz --save run.json --show unjudged

Each application is linted as a new user would: ``cd`` into its checkout and run
``steplint --no-cache --format json .`` (the project's own requirement files decide the releases).
The wall time is that process's, start to end. The checkouts are expected under ``--apps-root`` as
``<owner>+<name>/``, each the tree of the commit ``verdicts.json`` names (``git archive <commit> | tar
-x``); a missing one is reported and skipped, never fetched.

A finding matches a verdict when app, path, line and code are equal and the verdict's ``key`` (a short
piece of the message: a parameter or step name) occurs in the message; the longest matching key wins.
Findings no verdict matches are *unjudged*. A hazard is every verdict that is TP under the reading plus
every ``misses`` entry; a hazard no finding matches is a miss (so a TP that a build stops reporting
counts as a miss too, and a known miss a build starts reporting counts as found).

Two readings, both printed:

- ``strict``: a finding is true only if its hazard can happen in the project as it stands, so STP010,
  STP030 and STP031 in a project that never resumes a run (no checkpoint storage, ``checkpoint_id=``,
  ``responses=`` or ``request_info``) are false.
- ``issue28``: issue 28 item 1: STP010 is a property of the step's definition that the first checkpoint
  or pause exposes; the same argument holds for what a workflow body repeats on a resume (STP030,
  STP031), so those are true where the code has the hazard even if the project never resumes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERDICTS = HERE / "verdicts.json"
READINGS = ("strict", "issue28")
CORPUS_ARCHIVE = HERE.parent.parent.parent / "shared" / "corpora" / "agent-framework-python.tar.gz"


@dataclass
class Run:
    app: str
    seconds: float
    returncode: int
    findings: list[dict]
    error: str = ""
    cpu: float = 0.0  # user + system seconds of steplint and its worker processes


@dataclass
class Score:
    findings: int = 0
    tp: int = 0
    fp: int = 0
    unjudged: int = 0
    misses: int = 0
    tp_hazards_found: int = 0  # hazards (TP verdicts and known misses) some finding matched

    def add(self, other: Score) -> None:
        for name in ("findings", "tp", "fp", "unjudged", "misses", "tp_hazards_found"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def precision(self) -> float | None:
        judged = self.tp + self.fp
        return self.tp / judged if judged else None

    @property
    def recall(self) -> float | None:
        hazards = self.tp_hazards_found + self.misses
        return self.tp_hazards_found / hazards if hazards else None


@dataclass
class Result:
    runs: dict[str, Run]
    # reading -> app -> code -> Score
    scores: dict[str, dict[str, dict[str, Score]]] = field(default_factory=dict)
    unjudged: list[dict] = field(default_factory=list)
    missed: dict[str, list[dict]] = field(default_factory=dict)
    ambiguous: list[str] = field(default_factory=list)
    pairs: list[tuple[str, dict, dict | None]] = field(default_factory=list)  # (app, finding, verdict)


def lint(steplint: str, folder: Path, app: str) -> Run:
    """Run steplint in ``folder`` as a new user does; time the whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [steplint, "--no-cache", "--format", "json", "."],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 1):
        return Run(app, seconds, proc.returncode, [], proc.stderr.strip()[-2000:], cpu)
    try:
        findings = json.loads(proc.stdout or "[]")
    except json.JSONDecodeError as error:
        return Run(app, seconds, proc.returncode, [], f"bad JSON: {error}", cpu)
    keep = ("code", "path", "line", "column", "message", "severity")
    kept = [{k: f.get(k) for k in keep} for f in findings]
    for finding in kept:  # some findings carry an absolute path; verdicts name paths from the app's folder
        if finding["path"] and os.path.isabs(finding["path"]):
            finding["path"] = os.path.relpath(finding["path"], folder)
    return Run(app, seconds, proc.returncode, kept, "", cpu)


def unpack_corpus(archive: Path) -> Path:
    """Unpack the agent-framework archive once into $TMPDIR (it is data to measure on, never in the repo)."""
    dest = Path(tempfile.gettempdir()) / "steplint-realapps-corpus" / archive.name.split(".")[0]
    if not (dest / "packages").is_dir():
        dest.mkdir(parents=True, exist_ok=True)
        with tarfile.open(archive) as tar:
            tar.extractall(dest, filter="data")
    return dest


def check_book(book: dict) -> list[str]:
    """What is wrong with a verdicts file: missing fields, verdicts other than TP/FP, two entries one finding."""
    problems, seen = [], set()
    for kind in ("findings", "misses"):
        for entry in book[kind]:
            where = f"{kind}: {entry.get('app')} {entry.get('path')}:{entry.get('line')} {entry.get('code')}"
            if entry.get("app") not in book["apps"]:
                problems.append(f"{where}: app not in 'apps'")
            if not entry.get("reason"):
                problems.append(f"{where}: no reason")
            for reading in READINGS:
                if entry.get(reading, "TP" if kind == "misses" else None) not in ("TP", "FP"):
                    problems.append(f"{where}: {reading} must be TP or FP")
            identity = (entry.get("app"), entry.get("path"), entry.get("line"), entry.get("code"), entry.get("key", ""))
            if identity in seen:
                problems.append(f"{where}: key {entry.get('key', '')!r} given twice")
            seen.add(identity)
    return problems


def match(finding: dict, candidates: list[dict]) -> dict | None:
    best = None
    for verdict in candidates:
        key = verdict.get("key", "")
        if key in finding["message"] and (best is None or len(key) > len(best.get("key", ""))):
            best = verdict
    return best


def score(runs: dict[str, Run], book: dict) -> Result:
    result = Result(runs)
    index: dict[tuple, list[dict]] = defaultdict(list)
    # A known miss is a verdict on a finding not reported when it was judged: true under both readings
    # unless it says otherwise.
    entries = book["findings"] + [{"strict": "TP", "issue28": "TP", **miss} for miss in book["misses"]]
    for entry in entries:
        index[(entry["app"], entry["path"], entry["line"], entry["code"])].append(entry)

    matched: Counter = Counter()  # id(entry) -> how many findings matched it
    pairs = result.pairs
    for app, run in runs.items():
        for finding in run.findings:
            entry = match(finding, index.get((app, finding["path"], finding["line"], finding["code"]), []))
            if entry is None:
                result.unjudged.append({"app": app, **finding})
            else:
                matched[id(entry)] += 1
            pairs.append((app, finding, entry))
    result.ambiguous = [
        f"{e['app']} {e['path']}:{e['line']} {e['code']} key={e.get('key', '')!r} matches {matched[id(e)]} findings"
        for e in entries if matched[id(e)] > 1
    ]
    for reading in READINGS:
        table: dict[str, dict[str, Score]] = {app: defaultdict(Score) for app in runs}
        for app, finding, entry in pairs:
            cell = table[app][finding["code"]]
            cell.findings += 1
            if entry is None:
                cell.unjudged += 1
            elif entry[reading] == "TP":
                cell.tp += 1
            else:
                cell.fp += 1
        missed = []
        for entry in entries:
            if entry["app"] not in runs or entry[reading] != "TP":
                continue
            cell = table[entry["app"]][entry["code"]]
            if matched[id(entry)]:
                cell.tp_hazards_found += 1
            else:
                cell.misses += 1
                missed.append(entry)
        result.scores[reading] = table
        result.missed[reading] = missed
    return result


def fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def total(cells) -> Score:
    out = Score()
    for cell in cells:
        out.add(cell)
    return out


def report(result: Result, show: set[str], out=sys.stdout) -> None:
    apps = list(result.runs)
    strict, loose = result.scores["strict"], result.scores["issue28"]
    print("## Per application (strict | issue28)\n", file=out)
    print("| application | findings | TP | FP | unjudged | misses | TP | FP | misses | wall s | CPU s |", file=out)
    print("|---|---|---|---|---|---|---|---|---|---|---|", file=out)
    for app in apps:
        s, i = total(strict[app].values()), total(loose[app].values())
        run = result.runs[app]
        wall = f"{run.seconds:.1f}" + (f" (exit {run.returncode}: {run.error[:60]})" if run.error else "")
        print(f"| {app} | {s.findings} | {s.tp} | {s.fp} | {s.unjudged} | {s.misses} | {i.tp} | {i.fp} | "
              f"{i.misses} | {wall} | {run.cpu:.1f} |", file=out)
    for reading, table in result.scores.items():
        everything = total(c for app in apps for c in table[app].values())
        print(f"\n{reading}: findings {everything.findings}, TP {everything.tp}, FP {everything.fp}, "
              f"unjudged {everything.unjudged}, misses {everything.misses}; precision "
              f"{everything.tp}/{everything.tp + everything.fp} = {fmt(everything.precision)}, recall "
              f"{everything.tp_hazards_found}/{everything.tp_hazards_found + everything.misses} = "
              f"{fmt(everything.recall)}", file=out)
    print("\n## Per rule (strict | issue28)\n", file=out)
    print("| rule | findings | TP | FP | unjudged | misses | precision | recall | TP | FP | misses | precision "
          "| recall |", file=out)
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|", file=out)
    codes = sorted({code for table in result.scores.values() for app in apps for code in table[app]})
    for code in codes:
        s = total(strict[app][code] for app in apps if code in strict[app])
        i = total(loose[app][code] for app in apps if code in loose[app])
        print(f"| {code} | {s.findings} | {s.tp} | {s.fp} | {s.unjudged} | {s.misses} | {fmt(s.precision)} | "
              f"{fmt(s.recall)} | {i.tp} | {i.fp} | {i.misses} | {fmt(i.precision)} | {fmt(i.recall)} |", file=out)
    if result.ambiguous:
        print("\nverdicts matching more than one finding:", *result.ambiguous, sep="\n  ", file=out)
    if "unjudged" in show and result.unjudged:
        print(f"\n## Unjudged findings ({len(result.unjudged)})\n", file=out)
        for f in result.unjudged:
            print(f"- {f['app']} {f['path']}:{f['line']}:{f['column']} {f['code']} {f['message']}", file=out)
    if "misses" in show:
        for reading, missed in result.missed.items():
            print(f"\n## Misses, {reading} ({len(missed)})\n", file=out)
            for m in missed:
                print(f"- {m['app']} {m['path']}:{m['line']} {m['code']}: {m.get('reason', '')}", file=out)
    if "fp" in show:
        for reading in READINGS:
            false = [(app, f, e) for app, f, e in result.pairs if e is not None and e[reading] == "FP"]
            print(f"\n## False positives, {reading} ({len(false)})\n", file=out)
            for app, finding, entry in false:
                print(f"- {app} {finding['path']}:{finding['line']} {finding['code']}: {entry['reason']}", file=out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steplint", help="the steplint executable to measure")
    parser.add_argument("--apps-root", default="/work/realapps", help="folder holding <owner>+<name>/ checkouts")
    parser.add_argument("--verdicts", default=str(VERDICTS))
    parser.add_argument("--apps", help="comma-separated subset of applications (owner+name)")
    parser.add_argument("--corpus", nargs="?", const=str(CORPUS_ARCHIVE), default=None,
                        help="also lint the agent-framework tree (an unpacked folder or the .tar.gz; "
                             "default: ../shared/corpora/agent-framework-python.tar.gz)")
    parser.add_argument("--no-apps", action="store_true", help="lint the corpus only")
    parser.add_argument("--save", help="write the raw findings and wall times to this JSON file")
    parser.add_argument("--load", help="score the runs saved by --save instead of running steplint")
    parser.add_argument("--show", default="", help="comma-separated: unjudged, misses, fp")
    args = parser.parse_args(argv)

    book = json.loads(Path(args.verdicts).read_text())
    problems = check_book(book)
    if problems:
        print(*problems, sep="\n", file=sys.stderr)
        return 2
    runs: dict[str, Run] = {}
    if args.load:
        saved = json.loads(Path(args.load).read_text())
        runs = {app: Run(**run) for app, run in saved["runs"].items()}
        for app, run in runs.items():
            for finding in run.findings:
                if finding["path"] and os.path.isabs(finding["path"]):
                    finding["path"] = os.path.relpath(finding["path"], Path(args.apps_root) / app)
    else:
        if not args.steplint:
            parser.error("--steplint is required unless --load is given")
        steplint = str(Path(args.steplint).resolve()) if os.sep in args.steplint else args.steplint
        targets: list[tuple[str, Path]] = []
        if not args.no_apps:
            wanted = set(args.apps.split(",")) if args.apps else None
            for app, meta in book["apps"].items():
                if meta.get("corpus") or (wanted and app not in wanted):
                    continue
                folder = Path(args.apps_root) / app
                if not folder.is_dir():
                    print(f"missing {folder}: git archive {meta['commit']} of github.com/{meta['repo']} there",
                          file=sys.stderr)
                    continue
                targets.append((app, folder))
        if args.corpus:
            path = Path(args.corpus)
            folder = unpack_corpus(path) if path.is_file() else path
            targets.append(("corpus:agent-framework", folder))
        for app, folder in targets:
            run = lint(steplint, folder, app)
            print(f"{app}: {len(run.findings)} findings, {run.seconds:.1f} s wall, {run.cpu:.1f} s CPU"
                  + (f", exit {run.returncode}: {run.error[:200]}" if run.error else ""), file=sys.stderr)
            runs[app] = run
            if args.save:  # after every application, so a long run can be scored before it ends
                Path(args.save).write_text(json.dumps(
                    {"steplint": steplint, "runs": {app: run.__dict__ for app, run in runs.items()}}, indent=1))
    result = score(runs, book)
    report(result, {s for s in args.show.split(",") if s})
    return 0


if __name__ == "__main__":
    sys.exit(main())
