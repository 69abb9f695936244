"""Issue 30's suite workflow and its kinds of edit, shared by the replay-check tests and bench/replay_check.py.

Three modules: ``sfsteps`` (the steps and two module constants), ``sfhelpers``
(helpers that call steps, one imported by name, two called as
``sfhelpers.func()``, and a formatting helper), ``sfflow`` (the workflow and a
helper of its own). The workflow makes 12 step calls; the 11th (``final``)
crashes the first time, so the latest checkpoint is the one taken after 10.
Every step returns ``"<call> -> <value>"``, so the output tells which call made
each value: a resume is *right* when its output equals the uninterrupted run's
of the new code and no call completed before the crash runs again; *wrong*
when some value names another call than in the uninterrupted run (or a
completed call runs again); *stale* when every value names its call but some
value differs.
"""

from __future__ import annotations

import asyncio
import importlib
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from release_sites import release_site

MODULES = ("sfsteps", "sfhelpers", "sfflow", "app", "app.sfflow")
TARGET = "sfflow:pipeline"
LOG = "STEPLINT_SUITE_LOG"

STEPS = '''\
import os
import pathlib

import agent_framework as maf

RATE = 3
TAG = "k"


class Box:
    """MAF cannot fingerprint it: calls taking one are keyed by call order on every release."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"Box({self.value})"


def said(call, value):
    log = pathlib.Path(os.environ["STEPLINT_SUITE_LOG"])
    with log.open("a") as handle:
        handle.write(call + "\\n")
    if call.startswith("final") and (log.parent / "crash").exists():
        raise RuntimeError("crash")
    return f"{call} -> {value}"


@maf.step
async def a(x: int) -> str:
    return said(f"a({x})", f"a{x}")


@maf.step
async def b(x: int, tag: str = "t") -> str:
    return said(f"b({x},{tag})", f"b{x}{tag}")


@maf.step
async def scale(x: int) -> str:
    return said(f"scale({x})", x * RATE)


@maf.step
async def pack(box: Box) -> str:
    return said(f"pack({box.value})", f"p{box.value}")


@maf.step
async def final(x: int) -> str:
    return said(f"final({x})", f"f{x}")
'''

HELPERS = '''\
from sfsteps import Box, a, b, pack, scale


async def pair(n):
    first = await a(n)
    second = await a(n + 1)
    return [first, second]


async def tagged(n):
    first = await b(n, "p")
    second = await b(n + 1)
    return [first, second]


async def boxes(n):
    first = await pack(Box(n))
    second = await pack(Box(n + 1))
    return [first, second]


def label(parts):
    return "; ".join(parts)
'''

FLOW = '''\
import agent_framework as maf

import sfhelpers
from sfhelpers import label, pair
from sfsteps import TAG, a, b, final, scale


async def scaled(n):
    first = await scale(n)
    second = await scale(n + 2)
    return [first, second]


@maf.workflow
async def pipeline(n: int) -> str:
    parts = await scaled(n)
    parts += await pair(n)
    parts += await sfhelpers.tagged(n)
    parts.append(await a(n + 20))
    parts.append(await b(n + 5, TAG))
    parts += await sfhelpers.boxes(n)
    parts.append(await final(n))
    parts.append(await b(n + 30))
    return label(parts)
'''

SOURCES = {"sfsteps.py": STEPS, "sfhelpers.py": HELPERS, "sfflow.py": FLOW}


def _replace(file: str, old: str, new: str) -> Callable[[dict[str, str]], None]:
    def edit(sources: dict[str, str]) -> None:
        assert old in sources[file], (file, old)
        sources[file] = sources[file].replace(old, new, 1)

    return edit


def _prepend(file: str, line: str) -> Callable[[dict[str, str]], None]:
    def edit(sources: dict[str, str]) -> None:
        sources[file] = line + sources[file]

    return edit


def _as_package(sources: dict[str, str]) -> None:
    sources["app/__init__.py"] = ""
    sources["app/sfflow.py"] = sources.pop("sfflow.py")


#: kind of edit -> (the issue's row it belongs to, the edit)
EDITS: dict[str, tuple[str, Callable[[dict[str, str]], None]]] = {
    "none": ("none", lambda sources: None),
    "reorder in a helper of the workflow's module": (
        "reorder two step calls in a helper (same module, or imported by name)",
        _replace("sfflow.py", "    first = await scale(n)\n    second = await scale(n + 2)\n",
                 "    second = await scale(n + 2)\n    first = await scale(n)\n"),
    ),
    "reorder in a helper imported by name": (
        "reorder two step calls in a helper (same module, or imported by name)",
        _replace("sfhelpers.py", "    first = await a(n)\n    second = await a(n + 1)\n",
                 "    second = await a(n + 1)\n    first = await a(n)\n"),
    ),
    "reorder in a helper called as module.func()": (
        "reorder / change an argument in a helper called as `module.func()`",
        _replace("sfhelpers.py", '    first = await b(n, "p")\n    second = await b(n + 1)\n',
                 '    second = await b(n + 1)\n    first = await b(n, "p")\n'),
    ),
    "an argument in a helper called as module.func()": (
        "reorder / change an argument in a helper called as `module.func()`",
        _replace("sfhelpers.py", 'await b(n, "p")', 'await b(n, "r")'),
    ),
    "a literal in the workflow body that feeds a step": (
        "a literal in the workflow body that feeds a step",
        _replace("sfflow.py", "await a(n + 20)", "await a(n + 21)"),
    ),
    "a module constant passed to a step": (
        "a module constant passed to a step",
        _replace("sfsteps.py", 'TAG = "k"', 'TAG = "m"'),
    ),
    "a module constant read inside a step": (
        "a module constant read inside a step",
        _replace("sfsteps.py", "RATE = 3", "RATE = 4"),
    ),
    "a step's default argument": (
        "a step's default argument",
        _replace("sfsteps.py", 'tag: str = "t"', 'tag: str = "u"'),
    ),
    "reorder calls whose arguments cannot be fingerprinted": (
        "reorder calls whose arguments cannot be fingerprinted",
        _replace("sfhelpers.py", "    first = await pack(Box(n))\n    second = await pack(Box(n + 1))\n",
                 "    second = await pack(Box(n + 1))\n    first = await pack(Box(n))\n"),
    ),
    "a step body edit": ("a step body edit", _replace("sfsteps.py", 'f"a{x}"', 'f"A{x}"')),
    "a comment line at the top of the workflow's module": (
        "a comment line, a formatting helper, another module name",
        _prepend("sfflow.py", "# deployed on Tuesday\n"),
    ),
    "a comment line at the top of the helpers' module": (
        "a comment line, a formatting helper, another module name",
        _prepend("sfhelpers.py", "# deployed on Tuesday\n"),
    ),
    "a comment line at the top of the steps' module": (
        "a comment line, a formatting helper, another module name",
        _prepend("sfsteps.py", "# deployed on Tuesday\n"),
    ),
    "a formatting-helper edit": (
        "a comment line, a formatting helper, another module name",
        _replace("sfhelpers.py", '"; ".join(parts)', '" ; ".join(parts)'),
    ),
    "the workflow's file run under another module name": (
        "a comment line, a formatting helper, another module name",
        _as_package,
    ),
    "a docstring added to the workflow": (
        "a docstring, a renamed local, calls of different steps swapped",
        _replace("sfflow.py", "async def pipeline(n: int) -> str:\n",
                 'async def pipeline(n: int) -> str:\n    """Scale, pair, tag, pack, finish."""\n'),
    ),
    "a local variable of the workflow renamed": (
        "a docstring, a renamed local, calls of different steps swapped",
        lambda sources: sources.__setitem__(
            "sfflow.py", sources["sfflow.py"].replace("    parts", "    pieces").replace("label(parts)", "label(pieces)")
        ),
    ),
    "calls of two different steps swapped in the workflow": (
        "a docstring, a renamed local, calls of different steps swapped",
        _replace("sfflow.py", "    parts.append(await a(n + 20))\n    parts.append(await b(n + 5, TAG))\n",
                 "    parts.append(await b(n + 5, TAG))\n    parts.append(await a(n + 20))\n"),
    ),
    "a step call added before the resume point": (
        "a step call added or removed before the resume point",
        _replace("sfflow.py", "    parts.append(await a(n + 20))\n",
                 "    parts.append(await a(n + 20))\n    parts.append(await a(n + 40))\n"),
    ),
    "a step call removed before the resume point": (
        "a step call added or removed before the resume point",
        _replace("sfflow.py", "    parts.append(await a(n + 20))\n", ""),
    ),
    "every call of a step removed (in a helper called as module.func())": (
        "every call of a step removed",
        _replace("sfhelpers.py", "    first = await pack(Box(n))\n    second = await pack(Box(n + 1))\n    return [first, second]\n",
                 "    return []\n"),
    ),
    "a live call's result passed to a step before the resume point": (
        "keys left unjudged after a stand-in was used",
        _replace("sfhelpers.py", '    first = await b(n, "p")\n    second = await b(n + 1)\n',
                 '    first = await b(n, "p")\n    extra = await scale(n + 9)\n    second = await b(n + 1, extra[:1])\n'),
    ),
    # the two rows below keep the code as it is and change what the check is given: the baseline, the MAF
    # release that wrote the checkpoint (tests/runtime/test_replay_edits.py gives them their meaning)
    "the baseline does not import": ("a baseline that cannot replay", lambda sources: None),
    "agent-framework-core upgraded between crash and resume": (
        "Python 3.11 -> 3.12, or MAF 1.19 -> 1.20", lambda sources: None,
    ),
    "Python upgraded between crash and resume": ("Python 3.11 -> 3.12, or MAF 1.19 -> 1.20", lambda sources: None),
}

#: the sample the releases other than 1.18.0 and 1.26.0 run (one edit per verdict seen)
SAMPLE = (
    "none",
    "reorder in a helper called as module.func()",
    "a module constant passed to a step",
    "a comment line at the top of the workflow's module",
    "a step body edit",
)


def write_code(folder: Path, edit: str | None = None) -> str:
    """The suite's modules in *folder* (with *edit* applied); the TARGET naming the workflow there."""
    sources = dict(SOURCES)
    if edit is not None:
        EDITS[edit][1](sources)
    for name, text in sources.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return "app.sfflow:pipeline" if "app/sfflow.py" in sources else TARGET


def imported(folder: Path, target: str = TARGET) -> Any:
    """The workflow definition *target* names in *folder*, its modules imported afresh."""
    for name in MODULES:
        sys.modules.pop(name, None)
    importlib.invalidate_caches()
    sys.path.insert(0, str(folder))
    try:
        module_name, _, attribute = target.partition(":")
        return getattr(importlib.import_module(module_name), attribute)
    finally:
        sys.path.remove(str(folder))


def run(definition: Any, **kwargs: Any) -> Any:
    return asyncio.run(definition.build().run(**kwargs)).get_outputs()


def crashed_run(folder: Path, storage: Path, log: Path) -> None:
    """The original code runs with a FileCheckpointStorage in *storage* and crashes in its 11th call."""
    import agent_framework as maf

    definition = imported(folder)
    (log.parent / "crash").touch()
    try:
        run(definition, message=1, checkpoint_storage=maf.FileCheckpointStorage(str(storage)))
    except Exception as error:  # noqa: BLE001 - the crash is the point
        assert "crash" in str(error) or "crash" in repr(error.__cause__), error
    else:
        raise AssertionError("the original run did not crash")
    finally:
        (log.parent / "crash").unlink()


def parts(output: Any) -> list[tuple[str, str]]:
    """(call, value) for each part of a workflow output."""
    [text] = output
    return [tuple(part.strip().split(" -> ", 1)) for part in text.split(";")]  # type: ignore[misc]


def judged_resume(resumed: Any, uninterrupted: Any, ran_again: set[str], completed: set[str] = frozenset()) -> str:
    """right, wrong or stale, from the resumed output, the uninterrupted one, the completed calls that ran again.

    Also wrong: a *completed* call of a step the new code never calls (its result is dropped; the issue's
    definition, since the work it did is one the new code does not do).
    """
    got, want = parts(resumed), parts(uninterrupted)
    steps_now = {call.partition("(")[0] for call, _ in want}
    dropped = {call for call in completed if call.partition("(")[0] not in steps_now}
    if ran_again or dropped or [call for call, _ in got] != [call for call, _ in want]:
        return "wrong"
    return "right" if got == want else "stale"


def copy_storage(storage: Path, to: Path) -> Path:
    shutil.copytree(storage, to)
    return to


_WRITER = """
import sys
from importlib import metadata
from pathlib import Path
assert metadata.version("agent-framework-core") == sys.argv[1], metadata.version("agent-framework-core")
from replay_suite import crashed_run
crashed_run(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
"""


def crashed_run_under(version: str, folder: Path, storage: Path, log: Path, python: str | None = None) -> None:
    """crashed_run in a process of its own: with agent-framework-core *version* first on the path, or (with
    *python*, an interpreter that has *version* installed) under another Python."""
    import os
    import subprocess

    path = [str(Path(__file__).parent)] if python else [str(release_site(version)), str(Path(__file__).parent)]
    environment = {**os.environ, LOG: str(log), "PYTHONPATH": os.pathsep.join(path)}
    subprocess.run([python or sys.executable, "-c", _WRITER, version, str(folder), str(storage), str(log)],
                   check=True, env=environment, timeout=300)
