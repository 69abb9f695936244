"""``SettledNames`` reads a module-level name from the summaries where they settle it, instead of running the
module's import: its answer must be the engine's (``Engine.module_env``), as far as its readers tell values apart
(modules, outside names, steps; every other value is ``UNKNOWN`` to them)."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from steplint.analysis.module_names import SettledNames
from steplint.analysis.program import Analysis
from steplint.analysis.values import UNKNOWN, ExternalValue, ModuleValue, StepValue
from steplint.core.summary import ModuleSummary
from steplint.summaries.file_summary import summarize_source

ROOT = Path(__file__).resolve().parent.parent


def _told_apart(values):  # noqa: ANN001, ANN202
    if values is None:
        return None
    return frozenset(v if isinstance(v, (ExternalValue, ModuleValue, StepValue)) else UNKNOWN for v in values)


def _settled_then_engine(summaries: list[ModuleSummary]) -> tuple[dict, dict]:
    """Each module-level name's settled answer (read before any import runs) and the engine's."""
    engine = Analysis(summaries).engine
    settled = SettledNames(engine)
    answers = {}
    for module in summaries:
        for name in module.bindings:
            known, values = settled.settled(module, name)
            if known:
                answers[(module.module, name)] = _told_apart(values)
    assert not engine.module_units, "settling a name ran an import"
    truth = {(module.module, name): _told_apart(engine.module_env(module).get(name))
             for module in summaries for name in module.bindings}
    return answers, truth


def _summaries(files: dict[str, str]) -> list[ModuleSummary]:
    return [summarize_source(textwrap.dedent(text).lstrip("\n").encode(), path, _identity(path))
            for path, text in files.items()]


def _identity(path: str) -> tuple[str, bool]:
    """The module name a file has under the project's root (``pkg/__init__.py``: ``pkg``, a package)."""
    module = path[: -len(".py")].replace("/", ".").replace(os.sep, ".")
    return module.removesuffix(".__init__"), module.endswith(".__init__")


PROJECT = {
    "helpers.py": """
        import uuid
        from uuid import uuid4 as new_id

        def plain():
            return 1

        class Plain:
            pass

        ROUTES = {"a": plain}
        """,
    "pkg/__init__.py": """
        from pkg.inner import make
        """,
    "pkg/inner.py": """
        import time

        def make():
            return time.time()
        """,
    "decorated.py": """
        @id
        def numbered():
            pass

        @property
        def described(self):
            pass
        """,
    "app.py": """
        import importlib
        import importlib.metadata
        import logging
        import os.path
        import helpers
        import pkg.inner as inner_module
        from dataclasses import dataclass
        from typing import runtime_checkable
        from agent_framework import step, workflow
        from helpers import new_id, plain, Plain, ROUTES
        from pkg import inner, make
        from os.path import *
        from pathlib import Path
        from contextlib import asynccontextmanager, contextmanager

        logger = logging.getLogger(__name__)
        clock = helpers.uuid.uuid4
        ident = new_id
        joined = os.path.join
        made = make
        literal = [1, 2]
        func = lambda: 1
        spelled = f"{literal}"

        @dataclass
        class Record:
            name: str

        @dataclass(frozen=True)
        class Frozen:
            name: str

        @runtime_checkable
        class Checked:
            pass

        @step
        async def fetch(x: str) -> str:
            return x

        @workflow
        async def flow(x: str) -> str:
            return await fetch(x)

        def mutate():
            global counter
            counter = 2

        @logging.handlers
        @step
        def routed():
            pass

        @property
        def described(self):
            pass


        counter = 1
        if os.environ:
            branch = 1
        twice = 1
        twice = new_id(twice)
        later = not_yet
        not_yet = 3
        wrapped = step(plain)
        gathered = dict(a=1)
        instance = Plain()
        record = Frozen("x")
        checked = Checked()
        returned = plain()
        @contextmanager
        def opened():
            yield 1

        @asynccontextmanager
        @step
        async def leased():
            yield 1

        here = Path(__file__).resolve()
        folder = Path(__file__).parent
        storage = Path(__file__).resolve().parent / "storage" / "sessions"
        counted = plain() + 1
        handed = Path(__file__).joinpath(plain)
        suffixed = Path(__file__).with_suffix(".txt")
        mode = "library"

        if __name__ == "__main__":
            import sys
            mode = sys.argv[1]
            if mode:
                extra = 1
            def run_tests():
                pass
            scripted = new_id()
        """,
}

SETTLED = {
    "logger", "clock", "ident", "joined", "made", "literal", "func", "Record", "Frozen", "Checked", "logging", "os",
    "helpers", "inner_module", "dataclass", "runtime_checkable", "step", "workflow", "new_id", "plain", "ROUTES",
    "inner", "make", "mutate", "not_yet", "gathered", "Plain", "instance", "record", "twice", "importlib", "routed",
    "described", "Path", "here", "folder", "storage", "suffixed", "contextmanager", "asynccontextmanager",
    "opened", "leased", "mode", "sys", "extra", "run_tests", "scripted",
}


def test_each_binding_form_is_settled_as_the_engine_binds_it_or_left_to_the_engine():
    summaries = _summaries(PROJECT)
    answers, truth = _settled_then_engine(summaries)
    settled_in_app = {name for module, name in answers if module == "app"}
    # The f-string is a form the reader does not evaluate; decorated functions, a name some function declares
    # global, branches, a read before its binding (``later``; ``not_yet`` itself is settled), calls of
    # MAF, of modeled callables, of functions of the project (``counted`` too: the operand runs one) and of a
    # class a decorator may have replaced, and an outside method handed a function of the project (``handed``)
    # are the engine's to answer.
    assert settled_in_app == SETTLED
    for key, values in answers.items():
        assert values == truth[key], key
    assert answers[("app", "clock")] == frozenset({ExternalValue("uuid.uuid4")})
    assert answers[("app", "made")] == frozenset({UNKNOWN})  # pkg's ``make``, a function
    assert answers[("app", "inner")] == frozenset({ModuleValue("pkg/inner.py", "pkg.inner")})
    assert answers[("app", "Checked")] == frozenset({UNKNOWN, ExternalValue("typing.runtime_checkable()")})
    assert answers[("app", "logger")] == frozenset({ExternalValue("logging.getLogger()")})
    assert answers[("app", "twice")] == frozenset({ExternalValue("uuid.uuid4()")})
    assert answers[("app", "routed")] == frozenset({ExternalValue("logging.handlers()")})
    # ``from os.path import *``: a name the module does not bind is looked up there before the builtins
    assert answers[("app", "described")] == frozenset({ExternalValue("os.path.property()")})
    # a method of an outside value, called with literals and outside names only; an operator's result
    assert answers[("app", "here")] == frozenset({ExternalValue("pathlib.Path().resolve()")})
    assert answers[("app", "folder")] == frozenset({ExternalValue("pathlib.Path().parent")})
    assert answers[("app", "storage")] == frozenset({ExternalValue("pathlib.Path()")})  # a path joined with "/"
    # the import skips ``if __name__ == "__main__":``: what is bound only there is not bound, the rest as before
    assert answers[("app", "mode")] == frozenset({UNKNOWN})
    assert answers[("app", "scripted")] is None and answers[("app", "run_tests")] is None
    # ``@contextmanager`` wraps whatever it is given, a step too
    assert answers[("app", "opened")] == answers[("app", "leased")] == frozenset({UNKNOWN})
    assert answers[("decorated", "numbered")] == frozenset({UNKNOWN})  # an unmodeled builtin
    assert ("decorated", "described") not in answers  # a modeled one (a descriptor)


def test_a_main_guard_is_skipped_only_where_the_import_skips_it():
    """A package's ``__main__`` module, and a module that rebinds ``__name__``, may run the block on import."""
    guarded = "import uuid\nif __name__ == '__main__':\n    made = uuid.uuid4\n"
    summaries = _summaries({
        "tool/__main__.py": guarded,
        "renamed.py": "__name__ = '__main__'\n" + guarded,
        "plain.py": guarded,
    })
    answers, truth = _settled_then_engine(summaries)
    assert ("tool.__main__", "made") not in answers and ("renamed", "made") not in answers
    assert answers[("plain", "made")] is None and truth[("plain", "made")] is None


def test_a_star_import_of_an_analyzed_module_or_an_import_of_itself_settles_nothing():
    summaries = _summaries({
        "base.py": "x = 1\n",
        "star.py": "from base import *\nimport uuid\n",
        "selfish.py": "import selfish\nimport uuid\n",
    })
    answers, truth = _settled_then_engine(summaries)
    assert [key for key in answers if key[0] in ("star", "selfish")] == []
    assert answers[("base", "x")] == truth[("base", "x")]


def _projects() -> list[list[Path]]:
    """The repository's fixture projects and single-file fixtures, and the shared real-world cases when present."""
    roots = [ROOT / "fixtures", ROOT / "tests" / "differential" / "probes", ROOT.parent / "shared" / "realworld"]
    projects: list[list[Path]] = []
    for root in roots:
        if not root.is_dir():
            continue
        for entry in sorted(root.iterdir()):
            if entry.is_dir():
                files = sorted(entry.rglob("*.py"))
                if files:
                    projects.append(files)
            elif entry.suffix == ".py":
                projects.append([entry])
    return projects


def test_on_every_fixture_project_the_settled_answers_are_the_engines():
    projects = _projects()
    assert len(projects) > 40
    compared = 0
    for files in projects:
        base = os.path.commonpath([str(f.parent) for f in files])
        summaries = []
        for path in files:
            summary = summarize_source(path.read_bytes(), str(path), _identity(os.path.relpath(str(path), base)))
            if summary.error is None:
                summaries.append(summary)
        answers, truth = _settled_then_engine(summaries)
        for key, values in answers.items():
            assert values == truth[key], (files[0], key)
        compared += len(answers)
    assert compared > 500


@pytest.mark.parametrize("source, name", [
    ("import uuid\nfrom x import f\nif uuid:\n    f = 1\n", "f"),
    ("try:\n    from uuid import uuid4 as f\nexcept ImportError:\n    f = None\n", "f"),
    ("import uuid\nclass C(uuid.UUID):\n    pass\nC.make = uuid.uuid4\n", "C"),
])
def test_a_name_the_reader_cannot_tell_is_not_settled(source, name):
    summary = summarize_source(source.encode(), "one.py")
    engine = Analysis([summary]).engine
    known, _ = SettledNames(engine).settled(summary, name)
    assert known is (name == "C")  # a class is settled as UNKNOWN: its attributes are never read through it


def test_a_class_of_a_module_whose_import_ran_is_called_as_the_engine_calls_it():
    """Once a module's import ran, its names are read from its state, where a class is a ``ClassValue``: calling
    it makes an instance, as calling a class statement's ``_CLASS`` does."""
    summaries = _summaries({
        "models.py": """
            class Model:
                def __init__(self, name):
                    self.name = name
            """,
        "app.py": """
            from models import Model
            made = Model("x")
            """,
    })
    models, app = summaries
    engine = Analysis(summaries).engine
    engine.module_env(models)
    known, values = SettledNames(engine).settled(app, "made")
    assert known
    assert _told_apart(values) == _told_apart(engine.module_env(app)["made"]) == frozenset({UNKNOWN})


def test_a_path_joined_with_slash_is_a_path_and_nothing_else_is():
    """``path / part``: a path where a side is surely a pathlib path (made, or a path's parent/resolve()/...),
    an unknown operand kept beside it; a number made from a path (``stat().st_size / 1024``) is no path."""
    from steplint.analysis.interpret_shared import path_joined
    from steplint.analysis.values import UNKNOWN, ConstValue, ExternalValue

    path = ExternalValue("pathlib.Path()")
    assert path_joined(frozenset({ExternalValue("pathlib.Path().resolve().parent"), ConstValue("str", "x")})) == {path}
    assert path_joined(frozenset({ExternalValue("pathlib.Path.home()")})) == {path}
    assert path_joined(frozenset({ExternalValue("pathlib.PurePosixPath()")})) == {ExternalValue("pathlib.PurePosixPath()")}
    assert path_joined(frozenset({path, UNKNOWN})) == {path, UNKNOWN}
    assert path_joined(frozenset({ExternalValue("pathlib.Path().stat().st_size")})) == frozenset()
    assert path_joined(frozenset({ExternalValue("pathlib.Path"), ExternalValue("os.sep")})) == frozenset()
