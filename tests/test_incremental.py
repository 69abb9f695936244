"""Findings kept per module: an edit re-analyzes exactly the modules that reach it, and nothing else changes.

Every run here is compared with a run without any cache: a kept finding that
a full analysis would no longer make (or the reverse) fails the test. Which
modules were analyzed again is proven by the pipeline's own counter.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from steplint.run import process_pool as workers
from steplint.run.cache import Cache
from steplint.config.settings import Settings
from steplint.run.pipeline import LintRun

from test_cache import STEPS, _age

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.fixture
def project(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    files = {
        "__init__.py": "",
        "shared.py": "from agent_framework import step\n\n\n@step\nasync def tick(x: str) -> str:\n    return x\n",
        "relay.py": "from pkg.shared import tick as relayed\n",
        "far.py": "from agent_framework import step\nfrom pkg.relay import relayed\n\n\n@step\nasync def far(x: str) -> str:\n    return await relayed(x)\n",
        "plain.py": "VALUE = 1\n",
        **{f"steps{n}.py": STEPS.format(n=n) for n in range(4)},
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    _age(tmp_path)
    return tmp_path


def _lint(root: Path, target: Path, jobs: int = 1) -> LintRun:
    settings = Settings(project_root=root, extend_select=("STP100",))
    run = LintRun(settings, jobs=jobs, cache=Cache(root / ".steplint_cache"))
    run.result = run.run([str(target)])  # type: ignore[attr-defined]
    uncached = LintRun(settings).run([str(target)]).diagnostics
    assert run.result.diagnostics == uncached  # type: ignore[attr-defined]
    return run


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    _age(path)


def _codes(run: LintRun, name: str) -> list[str]:
    return sorted(d.code for d in run.result.diagnostics if Path(d.path).name == name)  # type: ignore[attr-defined]


def test_an_edit_reanalyzes_only_the_edited_module_when_nothing_reaches_it(project):
    cold = _lint(project, project / "pkg")
    assert cold.stats.analyzed == cold.stats.checked > 1
    _edit(project / "pkg" / "steps2.py", "return await tick(x)", "return x")
    edited = _lint(project, project / "pkg")
    assert edited.stats.analyzed == 1 and edited.stats.summarized == 1
    assert _codes(edited, "steps2.py") == [] and _codes(edited, "steps1.py") == ["STP001"]


def test_an_edit_in_an_imported_module_reanalyzes_every_module_that_resolves_into_it(project):
    _lint(project, project / "pkg")
    _edit(project / "pkg" / "shared.py", "@step\n", "")
    edited = _lint(project, project / "pkg")
    # shared.py, the four steps modules calling tick, relay.py re-exporting it and far.py calling that
    assert edited.stats.analyzed == 7
    assert all(_codes(edited, f"steps{n}.py") == [] for n in range(4)) and _codes(edited, "far.py") == []
    _edit(project / "pkg" / "shared.py", "async def tick", "@step\nasync def tick")
    restored = _lint(project, project / "pkg")
    assert restored.stats.analyzed == 7 and _codes(restored, "far.py") == ["STP001"]


def test_an_edit_no_other_module_can_see_reanalyzes_the_edited_module_only(project):
    """A comment, a blank line or a suppression comment changes the text of shared.py but not what its importers
    read of it (``reader_digest``): only shared.py is analyzed again, and every finding equals a cacheless run's."""
    _lint(project, project / "pkg")
    shared = project / "pkg" / "shared.py"
    _edit(shared, "async def tick", "# the tick step\nasync def tick")  # moves lines: the importers see that
    moved = _lint(project, project / "pkg")
    assert moved.stats.analyzed == 7
    with open(shared, "a") as text:
        text.write("\n# a comment at the end\n")
    _age(shared)
    commented = _lint(project, project / "pkg")
    assert commented.stats.analyzed == 1 and _codes(commented, "far.py") == ["STP001"]
    _edit(shared, "async def tick(x: str) -> str:", "async def tick(x: str) -> str:  # noqa: STP001")
    suppressed = _lint(project, project / "pkg")
    assert suppressed.stats.analyzed == 1 and _codes(suppressed, "far.py") == ["STP001"]
    _edit(shared, "@step\n", "")  # what the importers read: all of them again
    edited = _lint(project, project / "pkg")
    assert edited.stats.analyzed == 7 and _codes(edited, "far.py") == []


def test_an_edit_in_a_re_export_two_modules_away_reaches_the_importer(project):
    _lint(project, project / "pkg")
    _edit(project / "pkg" / "relay.py", "import tick as relayed", "import tick as other\n\n\nasync def relayed(x):\n    return x")
    edited = _lint(project, project / "pkg")
    assert _codes(edited, "far.py") == []


def test_an_unchanged_run_after_an_edit_is_replayed_whole(project):
    _lint(project, project / "pkg")
    _edit(project / "pkg" / "steps1.py", "return await tick(x)", "return x")
    _lint(project, project / "pkg")
    again = _lint(project, project / "pkg")
    assert again.stats.replayed


def test_a_module_outside_the_linted_folder_is_followed(project):
    sub = project / "pkg" / "sub"
    sub.mkdir()
    (sub / "__init__.py").write_text("")
    (sub / "user.py").write_text(STEPS.format(n=9))
    _age(project)
    first = _lint(project, sub)
    assert _codes(first, "user.py") == ["STP001"]
    _edit(project / "pkg" / "shared.py", "@step\n", "")
    edited = _lint(project, sub)
    assert edited.stats.analyzed == 1 and _codes(edited, "user.py") == []


@pytest.mark.parametrize("change", ["add", "remove"])
def test_adding_or_removing_a_file_analyzes_everything_again(project, change):
    _lint(project, project / "pkg")
    extra = project / "pkg" / "extra.py"
    if change == "add":
        extra.write_text(STEPS.format(n=7))
    else:
        (project / "pkg" / "steps3.py").unlink()
    _age(project)
    after = _lint(project, project / "pkg")
    assert after.stats.analyzed == after.stats.checked


def test_a_module_that_breaks_and_is_mended(project):
    _lint(project, project / "pkg")
    _edit(project / "pkg" / "shared.py", "async def tick(x: str) -> str:", "async def tick(x: str) -> str")
    broken = _lint(project, project / "pkg")
    assert _codes(broken, "shared.py") == ["STP900"] and _codes(broken, "steps0.py") == []
    _edit(project / "pkg" / "shared.py", "async def tick(x: str) -> str\n", "async def tick(x: str) -> str:\n")
    mended = _lint(project, project / "pkg")
    assert _codes(mended, "steps0.py") == ["STP001"]


def test_a_silenced_finding_in_another_module_follows_that_modules_comments(project):
    """A step body defined in one file and made a step in another: its findings obey the body file's noqa."""
    pkg = project / "pkg"
    (pkg / "body.py").write_text("from pkg.shared import tick\n\n\nasync def fetch(x: str) -> str:\n    return await tick(x)\n")
    (pkg / "wrap.py").write_text("from agent_framework import step\nfrom pkg.body import fetch\n\nfetch_step = step(fetch)\n")
    _age(project)
    first = _lint(project, pkg)
    assert _codes(first, "body.py") == ["STP001"]
    _edit(pkg / "body.py", "return await tick(x)\n", "return await tick(x)  # noqa: STP001\n")
    silenced = _lint(project, pkg)
    assert _codes(silenced, "body.py") == []
    _edit(pkg / "body.py", "  # noqa: STP001\n", "  # noqa: STP001, STP002\n")
    partly = _lint(project, pkg)
    assert _codes(partly, "body.py") == ["STP100"]


def _fixture_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if ".steplint_cache" not in p.parts)


@pytest.mark.parametrize("jobs", [1, 2], ids=["in-process", "workers"])
@pytest.mark.parametrize("seed", range(int(os.environ.get("STEPLINT_INCREMENTAL_SEEDS", "4"))))
def test_random_edits_to_the_fixtures_never_leave_a_stale_finding(tmp_path, seed, jobs, monkeypatch):
    """Each step moves text between fixture files (imports, steps, re-exports change); each run matches a full one.

    With two jobs, worker processes summarize and check shares of the modules, each with its own index.
    """
    monkeypatch.setattr(workers, "MIN_FILES_PER_WORKER", 1)
    root = tmp_path / "project"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns(".steplint_cache", "__pycache__"))
    _age(root)
    _lint(root, root, jobs)
    rng = random.Random(seed)
    files = _fixture_files(root)
    texts = [path.read_text(encoding="utf-8") for path in files]
    for _ in range(6):
        target = rng.choice(files)
        lines = target.read_text(encoding="utf-8").splitlines(keepends=True)
        operation = rng.randrange(4)
        if operation == 0:  # become another fixture file: new imports, steps and names
            target.write_text(rng.choice(texts), encoding="utf-8")
        elif operation == 1 and lines:  # lose a line: a decorator, an import, a call...
            del lines[rng.randrange(len(lines))]
            target.write_text("".join(lines), encoding="utf-8")
        elif operation == 2:  # take a line from another file
            donor = rng.choice(texts).splitlines(keepends=True) or ["\n"]
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(donor).lstrip())
            target.write_text("".join(lines), encoding="utf-8")
        else:  # a comment: nothing that any finding reads
            target.write_text("".join(lines) + "\n# edited\n", encoding="utf-8")
        _age(target)
        _lint(root, root, jobs)
    (root / "stp040_sync.py").write_text("# a file of its own: nothing imports it\n", encoding="utf-8")
    _age(root)
    last = _lint(root, root, jobs)
    assert 0 < last.stats.analyzed < last.stats.checked


def test_files_with_the_same_bytes_in_different_packages_keep_their_own_summaries(tmp_path):
    """``from .shared import tick`` means a.shared in one package and b.shared in the other."""
    steps = "from agent_framework import step\nfrom .shared import tick\n\n\n@step\nasync def outer(x: str) -> str:\n    return await tick(x)\n"
    for package, shared in (("a", "@step\nasync def tick(x: str) -> str:\n    return x\n"), ("b", "async def tick(x: str) -> str:\n    return x\n")):
        folder = tmp_path / package
        folder.mkdir()
        (folder / "__init__.py").write_text("")
        (folder / "shared.py").write_text("from agent_framework import step\n\n\n" + shared)
        (folder / "steps.py").write_text(steps)
    _age(tmp_path)
    first = _lint(tmp_path, tmp_path)
    assert [Path(d.path).parent.name for d in first.result.diagnostics if d.code == "STP001"] == ["a"]  # type: ignore[attr-defined]
    for package in ("a", "b"):  # whichever was stored last, the other is loaded from the store once
        _edit(tmp_path / package / "shared.py", "return x", "return str(x)")  # a change its importers read
        again = _lint(tmp_path, tmp_path)  # its steps.py is analyzed again, from its stored summary
        assert again.stats.analyzed >= 2 and again.stats.summarized == 1


def test_an_edit_to_the_storage_a_workflow_is_built_with_reanalyzes_its_steps(tmp_path):
    """STP050 reads which storage the run's files give a workflow: the module that makes it imports nothing of it."""
    shutil.copytree(FIXTURES / "stp050_storage_elsewhere", tmp_path / "project")
    root = tmp_path / "project"
    _age(root)
    cold = _lint(root, root / "app")
    assert _codes(cold, "steps.py") == ["STP050"]
    _edit(root / "app" / "main.py", 'STORAGE = FileCheckpointStorage("checkpoints")', "STORAGE = InMemoryCheckpointStorage()")
    edited = _lint(root, root / "app")
    assert _codes(edited, "steps.py") == []


def test_a_file_that_comes_to_give_a_workflow_its_storage_reanalyzes_its_steps(tmp_path):
    """The storage scan reads only the files whose text can spell ``checkpoint_storage``, yet every run file is
    what the verdict rests on: a file that held no storage at first and later builds the workflow with a
    pickling one makes the cached steps module be analyzed again."""
    shutil.copytree(FIXTURES / "stp050_storage_elsewhere", tmp_path / "project")
    root = tmp_path / "project"
    _edit(root / "app" / "main.py", 'STORAGE = FileCheckpointStorage("checkpoints")', "STORAGE = InMemoryCheckpointStorage()")
    (root / "app" / "launcher.py").write_text('print("nothing here yet")\n')
    _age(root)
    cold = _lint(root, root / "app")
    assert _codes(cold, "steps.py") == []
    _edit(root / "app" / "launcher.py", 'print("nothing here yet")\n',
          "from agent_framework import FileCheckpointStorage\n\nfrom app.steps import billing\n\n"
          'INSTANCE = billing.build(checkpoint_storage=FileCheckpointStorage("checkpoints"))\n')
    edited = _lint(root, root / "app")
    assert _codes(edited, "steps.py") == ["STP050"]


def test_a_file_is_read_for_the_storage_scan_only_if_its_text_can_spell_the_keyword(tmp_path):
    from steplint.summaries.module_loader import ModuleLoader

    loader = ModuleLoader([], roots=[str(tmp_path)])
    cases = {
        "plain.py": ("x = 1\n", False),
        "spelled.py": ("run(checkpoint_storage=s)\n", True),
        "in_a_comment.py": ("# checkpoint_storage\n", True),  # over-approximates: text, not syntax
        "fullwidth.py": ("run(ｃheckpoint_storage=s)\n", True),  # Python reads identifiers NFKC-normalized
        "other_unicode.py": ("note = 'café'\n", False),
    }
    for name, (text, expected) in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        assert loader.may_name(str(tmp_path / name), "checkpoint_storage") is expected, name
    assert loader.may_name(str(tmp_path / "missing.py"), "checkpoint_storage") is True  # unreadable: it may


def test_the_storage_scan_follows_the_names_files_spell_from_the_steps_module(tmp_path):
    """A file is scanned for storages only where a chain of files, each spelling the next one's name, leads from
    it to the step's module: ``spelling`` reads an unsaved buffer before the file on disk, reads identifiers
    NFKC-normalized, and lets a file it cannot read through."""
    from steplint.summaries.module_loader import ModuleLoader

    loader = ModuleLoader([], roots=[str(tmp_path)])
    files = {
        "importer.py": "from app import jobs\n",
        "fullwidth.py": "import ｊobs\n",
        "plain.py": "x = 1\n",
        "buffered.py": "x = 1\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    loader.texts[str(tmp_path / "buffered.py")] = b"from . import jobs\n"
    paths = [str(tmp_path / name) for name in [*files, "missing.py"]]
    spelled = {Path(path).name for path in loader.spelling(paths, {"jobs"})}
    assert spelled == {"importer.py", "fullwidth.py", "buffered.py", "missing.py"}
    assert loader.spelling(paths, {"flows"}) == {str(tmp_path / "missing.py")}


def test_a_steps_storages_do_not_depend_on_which_step_was_judged_first(tmp_path):
    """The scan keeps what each module gives by module and a step reads only the modules that can reach it: a holder
    scanned for a step judged earlier (aaa's) must not decide, nor hide, another step's verdict (zzz's), whatever
    the order the paths are given in."""
    step_module = (
        "from dataclasses import dataclass\n\nfrom agent_framework import step, workflow\n\n\n"
        "@dataclass\nclass {cls}:\n    total: int\n\n\n"
        "@step\nasync def {step}(total: int) -> {cls}:\n    return {cls}(total)\n\n\n"
        "@workflow\nasync def {flow}(total: int) -> int:\n    return (await {step}(total)).total\n"
    )
    (tmp_path / "aaa").mkdir()
    (tmp_path / "aaa" / "__init__.py").write_text("")
    (tmp_path / "aaa" / "extra.py").write_text(step_module.format(cls="Note", step="audit", flow="audits"))
    (tmp_path / "zzz").mkdir()
    (tmp_path / "zzz" / "__init__.py").write_text(step_module.format(cls="Receipt", step="charge", flow="billing"))
    (tmp_path / "zzz" / "runner.py").write_text(
        "from agent_framework import FileCheckpointStorage\n\nfrom aaa.extra import audits\n\nfrom . import billing\n\n\n"
        "async def serve(total: int) -> None:\n"
        '    await billing.build(checkpoint_storage=FileCheckpointStorage("checkpoints")).run(total)\n'
        '    await audits.build(checkpoint_storage=FileCheckpointStorage("checkpoints")).run(total)\n'
    )
    settings = Settings(project_root=tmp_path, select=("STP050",), target_version=(1, 23, 0))
    for order in (["aaa", "zzz"], ["zzz", "aaa"]):
        found = LintRun(settings).run([str(tmp_path / name) for name in order]).diagnostics
        assert sorted((Path(d.path).name, d.code) for d in found) == [("__init__.py", "STP050"), ("extra.py", "STP050")], order


def test_an_imports_writes_into_a_registry_are_seen_only_by_the_modules_whose_import_ran_it(tmp_path):
    """A plugin module's import registers a step into another module's dict: a module whose own import imports the
    plugin reads it, after its import statement (not before: Python's order); a module that does not import it
    never does, whichever other module imported the plugin first (the findings must not depend on the order the
    modules are checked in, nor on files the module does not import: the cache rests on it)."""
    (tmp_path / "registry.py").write_text("HANDLERS = {}\n")
    (tmp_path / "plugins.py").write_text(
        "from agent_framework import step\n\nfrom registry import HANDLERS\n\n\n"
        "@step\nasync def charge(order: str) -> str:\n    return order\n\n\nHANDLERS['charge'] = charge\n")
    reader = ("from agent_framework import step\n\n{before}from registry import HANDLERS\n\n\n"
              "@step\nasync def checkout(order: str) -> str:\n    return await HANDLERS['charge'](order)\n")
    (tmp_path / "importing.py").write_text(reader.format(before="import plugins  # noqa: F401\n"))
    (tmp_path / "blind.py").write_text(reader.format(before=""))
    (tmp_path / "early.py").write_text(
        "from agent_framework import step\n\nfrom registry import HANDLERS\n\nHANDLER = HANDLERS.get('charge')\n"
        "import plugins  # noqa: E402,F401\n\n\n"
        "@step\nasync def checkout(order: str) -> str:\n    return await HANDLER(order)\n")
    settings = Settings(project_root=tmp_path, select=("STP001",), target_version=(1, 23, 0))
    for order in (["importing.py", "blind.py", "early.py"], ["early.py", "blind.py", "importing.py"],
                  ["blind.py"], ["early.py"]):
        found = LintRun(settings).run([str(tmp_path / name) for name in order]).diagnostics
        expected = [("importing.py", 9)] if "importing.py" in order else []
        assert sorted((Path(d.path).name, d.line) for d in found) == expected, order
