"""Issue 29's rule fixtures run on the installed agent-framework-core, all cases in one batch.

The runtime truths of STP031, STP033, STP044 and STP051 run their rule's doc example and also every case of the
rule's fixture under ``fixtures/``: the code is read from the fixture (never copied here) and each line with an
inline ``# expect: STPnnn`` is a case that must show the hazard, each other line of the same kind a near miss that
must not. The I/O the fixtures do goes to stand-ins that record which fixture lines were on the stack.

Crash and resume: this process starts every case (runs that pause at a question, runs that finish and leave a
checkpoint per step), then ONE new process (``python fixture_truths.py resume DIR``) resumes them all from their
file checkpoints and writes what it saw; ``outcomes()`` runs that once per test session and caches it, so every
release pays one interpreter start for all the cases. Needs only agent-framework-core.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import functools
import json
import os
import re
import subprocess
import sys
import tempfile
import types
from importlib import metadata
from pathlib import Path
from typing import Any

import agent_framework as maf
from shim_support import chain

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
STP031_FLOW = FIXTURES / "stp031_io" / "flow.py"
STP031_STORAGE = FIXTURES / "stp031_io" / "storage.py"
STP033 = FIXTURES / "stp033_io_before_request_info.py"
STP044 = FIXTURES / "stp044_workflow_without_input.py"
STP051 = FIXTURES / "stp051_step_mutates_argument.py"
STP031_WORKFLOWS = ("pipeline", "hosts", "constructed")
STP051_WORKFLOWS = ("shapes", "quiet")
IO_LOG_ENV = "STEPLINT_FIXTURE_IO_LOG"


def expected_lines(path: Path, code: str) -> set[int]:
    """The fixture's lines that end in ``# expect: CODE`` (with or without a column)."""
    pattern = re.compile(rf"# expect: (?:\S+, *)*{code}\b")
    return {number for number, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)}


def rule_example(code: str) -> str:
    """The ``## Example`` block of rule CODE's docstring, read from rules/ without importing the linter."""
    (module,) = (REPO / "rules").glob(f"{code.lower()}_*.py")
    for node in ast.parse(module.read_text()).body:
        if isinstance(node, ast.ClassDef) and ast.get_docstring(node):
            found = re.search(r"## Example\n```python\n(?:# fixture: \S+\n)?(.*?)```", ast.get_docstring(node), re.S)
            if found:
                return found.group(1)
    raise LookupError(f"no ## Example in {module}")


# ---- stand-ins for the I/O the fixtures do: each records the fixture lines on the stack -------------------------

def _record(kind: str) -> None:
    watched = {str(STP031_FLOW), str(STP033)}
    frame, lines = sys._getframe(1), []
    while frame is not None:
        if frame.f_code.co_filename in watched:
            lines.append([frame.f_code.co_filename, frame.f_lineno])
        frame = frame.f_back
    with open(os.environ[IO_LOG_ENV], "a", encoding="utf-8") as log:
        log.write(json.dumps({"kind": kind, "stack": lines, "pid": os.getpid()}) + "\n")


class _Handle:
    status_code = 200
    returncode = 0

    def write(self, text: str) -> int:
        return len(text)

    def close(self) -> None:
        pass

    def __enter__(self) -> _Handle:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def _io(kind: str):  # noqa: ANN202 - a recording stand-in
    def call(*args: Any, **kwargs: Any) -> _Handle:
        _record(kind)
        return _Handle()
    return call


class _FakePath:
    def __init__(self, *parts: object) -> None:
        self.parts = parts

    def __truediv__(self, other: object) -> _FakePath:
        return _FakePath(*self.parts, other)

    def write_text(self, *args: Any, **kwargs: Any) -> int:
        _record("Path.write_text")
        return 0


class _AsyncClient:
    async def __aenter__(self) -> _AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        pass

    async def get(self, *args: Any, **kwargs: Any) -> _Handle:
        _record("httpx.get")
        return _Handle()

    async def post(self, *args: Any, **kwargs: Any) -> _Handle:
        _record("httpx.post")
        return _Handle()


def _made_file(*args: Any, **kwargs: Any) -> tuple[int, str]:
    """``tempfile.mkstemp``: a descriptor and a path, the file made."""
    _record("tempfile.mkstemp")
    return 3, "/tmp/stand-in"


def _module(name: str, **attributes: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


STAND_INS = {
    "requests": _module("requests", post=_io("requests.post"), get=_io("requests.get")),
    "httpx": _module("httpx", AsyncClient=_AsyncClient),
    "subprocess": _module("subprocess", run=_io("subprocess.run")),
    "os": _module("os", system=_io("os.system"), fdopen=_io("os.fdopen")),
    "tempfile": _module("tempfile", mkstemp=_made_file),
    "shutil": _module("shutil", copy=_io("shutil.copy")),
    "socket": _module("socket", create_connection=_io("socket.create_connection")),
    "Path": _FakePath,
    "open": _io("open"),
}


def load(path: Path, name: str) -> types.ModuleType:
    """The fixture module, as Python imports it, with its I/O names bound to the stand-ins."""
    module = types.ModuleType(name)
    module.__file__ = str(path)
    saved = {key: sys.modules.get(key) for key in ("requests", "httpx", name)}
    sys.modules.update({"requests": STAND_INS["requests"], "httpx": STAND_INS["httpx"], name: module})
    try:
        exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    finally:
        for key, value in saved.items():
            if key == name:
                continue
            if value is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = value
    for key in set(STAND_INS) & {*module.__dict__, "open"}:
        module.__dict__[key] = STAND_INS[key]
    return module


def stp031_module() -> types.ModuleType:
    storage = load(STP031_STORAGE, "storage")  # flow.py imports it by that name
    saved = sys.modules.get("storage")
    sys.modules["storage"] = storage
    try:
        return load(STP031_FLOW, "stp031_flow")
    finally:
        if saved is None:
            sys.modules.pop("storage", None)
        else:
            sys.modules["storage"] = saved


# ---- running workflows on every release ---------------------------------------------------------------------

def _runnable(definition: Any, storage: Any) -> Any:
    """``.build()`` from 1.14; before, the decorator made the runnable workflow."""
    if hasattr(definition, "build"):
        return definition.build(checkpoint_storage=storage)
    return type(definition)(definition._func, name=definition.name, checkpoint_storage=storage)


def _outcome(result: Any) -> str:
    return repr(result.get_outputs())


def _asking_workflow(step_wrapper: Any, name: str) -> Any:
    """A workflow that calls one of the fixture's asking steps with a topic."""
    async def asks(topic: str) -> Any:
        return await step_wrapper(topic)
    asks.__name__ = name
    return maf.workflow(name=name)(asks)


def stp033_steps() -> dict[str, Any]:
    module = load(STP033, "stp033_fixture")
    return {name: value for name, value in vars(module).items() if isinstance(value, maf.StepWrapper)
            and "ctx" in value._func.__code__.co_varnames[:value._func.__code__.co_argcount]}


async def _start(work: Path) -> None:
    for name, wrapper in stp033_steps().items():
        flow = _asking_workflow(wrapper, f"stp033-{name}")
        await _runnable(flow, maf.FileCheckpointStorage(str(work / f"stp033-{name}"))).run("first topic,second topic")
    flow_module = stp031_module()
    for name in STP031_WORKFLOWS:
        await _runnable(getattr(flow_module, name), maf.FileCheckpointStorage(str(work / f"stp031-{name}"))).run("t")
    module = load(STP051, "stp051_fixture")
    for name in STP051_WORKFLOWS:
        live = await _runnable(getattr(module, name), maf.FileCheckpointStorage(str(work / f"stp051-{name}"))).run("x")
        (work / f"stp051-{name}.live").write_text(_outcome(live))


async def _resume(work: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for name, wrapper in stp033_steps().items():
        workflow_name = f"stp033-{name}"
        flow, storage = _asking_workflow(wrapper, workflow_name), maf.FileCheckpointStorage(str(work / workflow_name))
        answers: dict[str, str] = {}
        for _ in range(10):  # answer every question asked so far (MAF keeps no answer across resumes)
            last = (await chain(storage, workflow_name))[-1]
            pending = list(last.pending_request_info_events)
            if not pending:
                break
            answers.update({request_id: f"answer-{request_id}" for request_id in pending})
            result = await _runnable(flow, storage).run(checkpoint_id=last.checkpoint_id, responses=dict(answers))
        seen[workflow_name] = {"answers": sorted(answers), "outputs": _outcome(result)}
    flow_module = stp031_module()
    for name in STP031_WORKFLOWS:
        storage = maf.FileCheckpointStorage(str(work / f"stp031-{name}"))
        last = (await chain(storage, name))[-1]
        seen[f"stp031-{name}"] = _outcome(await _runnable(getattr(flow_module, name), storage).run(
            checkpoint_id=last.checkpoint_id))
    module = load(STP051, "stp051_fixture")
    for name in STP051_WORKFLOWS:
        storage = maf.FileCheckpointStorage(str(work / f"stp051-{name}"))
        outcomes = [[0, (work / f"stp051-{name}.live").read_text()]]
        for checkpoint in await chain(storage, name):
            cached = len(checkpoint.state.get("_step_cache", {}))
            try:
                outcome = _outcome(await _runnable(getattr(module, name), storage).run(
                    checkpoint_id=checkpoint.checkpoint_id))
            except Exception as exc:  # a lost change the body trips over: also a different outcome
                outcome = f"raised {type(exc).__name__}"
            outcomes.append([cached, outcome])
        seen[f"stp051-{name}"] = outcomes
    return seen


@functools.cache
def outcomes() -> dict[str, Any]:
    """Start every case here, resume them all in one new process; what each saw, and the I/O log."""
    work = Path(tempfile.mkdtemp(prefix="steplint-fixture-truths-"))
    log = work / "io.jsonl"
    log.touch()
    os.environ[IO_LOG_ENV] = str(log)
    with contextlib.redirect_stdout(None):
        asyncio.run(_start(work))
    started = log.read_text().count("\n")
    completed = subprocess.run([sys.executable, __file__, "resume", str(work)], capture_output=True, text=True,
                               env=dict(os.environ), timeout=300, check=False)
    if completed.returncode != 0:
        raise RuntimeError(f"the resuming process failed:\n{completed.stdout}\n{completed.stderr}")
    seen = json.loads((work / "resumed.json").read_text())
    if seen.pop("release") != metadata.version("agent-framework-core"):
        raise RuntimeError("the resuming process imported another agent-framework-core")
    events = [json.loads(line) for line in log.read_text().splitlines()]
    return {"seen": seen, "io": events, "started_events": started, "parent": os.getpid()}


def step_call_lines(path: Path, function: str, steps: set[str]) -> list[int]:
    """The lines of ``function``'s straight-line body that await a call of one of ``steps``, in order."""
    (node,) = [n for n in ast.parse(path.read_text()).body if isinstance(n, ast.AsyncFunctionDef) and n.name == function]
    assert all(not isinstance(statement, (ast.If, ast.For, ast.While, ast.Try, ast.With, ast.Match))
               for statement in node.body), f"{function}: not straight-line, the call order is not the line order"
    return sorted({call.lineno for call in ast.walk(node) if isinstance(call, ast.Await)
                   and isinstance(call.value, ast.Call) and isinstance(call.value.func, ast.Name)
                   and call.value.func.id in steps})


def io_counts(path: Path, events: list[dict[str, Any]], outermost: bool = True) -> dict[int, int]:
    """How many I/O calls each line of *path* made: the outermost line of *path* on each call's stack."""
    counts: dict[int, int] = {}
    for event in events:
        lines = [line for file, line in event["stack"] if file == str(path)]
        if lines:
            line = lines[-1] if outermost else lines[0]
            counts[line] = counts.get(line, 0) + 1
    return counts


def resume_all(directory: Path) -> None:
    with contextlib.redirect_stdout(None):
        resumed = asyncio.run(_resume(directory))
    resumed["release"] = metadata.version("agent-framework-core")
    (directory / "resumed.json").write_text(json.dumps(resumed))


if __name__ == "__main__" and sys.argv[1:2] == ["resume"]:
    # Under its own module name, as in the starting process: a workflow's signature hash names its functions' module.
    import fixture_truths

    fixture_truths.resume_all(Path(sys.argv[2]))


STP043_APP = FIXTURES / "stp043_run_misuse"
STP043_RUNNER = STP043_APP / "app" / "runner.py"


def stp043_statements() -> dict[int, str]:
    """Every statement of fixtures/stp043_run_misuse/app/runner.py's ``run_all`` body, by line, and the one the
    ``if __name__ == "__main__":`` block runs: each is a case, run on its own."""
    tree = ast.parse(STP043_RUNNER.read_text())
    chosen = []
    for node in tree.body:
        if isinstance(node, ast.AsyncFunctionDef) and node.name == "run_all":
            chosen.extend(node.body)
        elif isinstance(node, ast.If) and ast.unparse(node.test) == "__name__ == '__main__'":
            chosen.extend(node.body)
    return {statement.lineno: ast.unparse(statement) for statement in chosen}


def stp043_module() -> Any:
    """fixtures/stp043_run_misuse/app/runner.py, imported as ``app.runner`` (its package's imports need the folder)."""
    saved_path = list(sys.path)
    shadowed = {name: sys.modules.pop(name) for name in list(sys.modules) if name == "app" or name.startswith("app.")}
    saved_modules = set(sys.modules)
    sys.path.insert(0, str(STP043_APP))
    try:
        return __import__("app.runner", fromlist=["runner"])
    finally:
        sys.path[:] = saved_path
        for name in set(sys.modules) - saved_modules:
            del sys.modules[name]
        sys.modules.update(shadowed)


def stp043_outcomes() -> dict[int, str]:
    """How each runner statement ends when run alone (an ``await`` run to its end by ``asyncio.run``; the names the
    fixture's function takes bound to a built workflow and one answer): "ran", or the exception and its message."""
    saved_path = list(sys.path)
    # Another fixture's `app` package imported earlier in this process would answer `app.runner`: set it aside.
    shadowed = {name: sys.modules.pop(name) for name in list(sys.modules) if name == "app" or name.startswith("app.")}
    saved_modules = set(sys.modules)
    sys.path.insert(0, str(STP043_APP))
    try:
        runner = __import__("app.runner", fromlist=["runner"])
        flows = sys.modules["app.flows"]
        scope = dict(vars(runner))
        scope.update(wf=_runnable(flows.review, None), responses={"r1": "yes"})
        seen = {}
        for line, statement in stp043_statements().items():
            awaited = statement.startswith("await ")
            try:
                if awaited:
                    value = eval(compile(statement.removeprefix("await "), str(STP043_RUNNER), "eval"), scope)
                    asyncio.run(_awaited(value))
                else:
                    exec(compile(statement, str(STP043_RUNNER), "exec"), scope)
                seen[line] = "ran"
            except Exception as exc:  # the hazard's own errors, and the near misses' unrelated ones
                seen[line] = f"{type(exc).__name__}: {exc}"
        return seen
    finally:
        sys.path[:] = saved_path
        for name in set(sys.modules) - saved_modules:
            del sys.modules[name]
        sys.modules.update(shadowed)


async def _awaited(value: Any) -> Any:
    return await value
