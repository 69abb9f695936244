"""The prefilter skips only files that cannot hold a finding, and loses none."""

from __future__ import annotations

import os
import py_compile
import sys
import textwrap
from pathlib import Path

import pytest
from expectations import fixture_entries, settings_for
from hypothesis import given
from hypothesis import strategies as st

from steplint.config.settings import Settings
from steplint.api import lint_paths
from steplint.run.bytecode import compiled_by_this_python
from steplint.run.pipeline import LintRun
from steplint.run.prefilter import scan
from steplint.summaries.suppression_comments import scan_suppressions


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def _run(paths: list[str], root: Path, prefilter: bool = True) -> LintRun:
    run = LintRun(Settings(project_root=root), prefilter=prefilter)
    run.result = run.run(paths)  # type: ignore[attr-defined]
    return run


@pytest.mark.parametrize("entry", fixture_entries(), ids=lambda p: p.name)
def test_the_prefilter_loses_nothing_on_the_fixtures(entry):
    settings = settings_for(entry)
    with_prefilter = lint_paths([str(entry)], settings).diagnostics
    without = lint_paths([str(entry)], settings, prefilter=False).diagnostics
    assert with_prefilter == without


def test_the_whole_fixtures_folder_at_once_gives_the_same_findings():
    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    settings = Settings(project_root=fixtures)
    assert lint_paths([str(fixtures)], settings).diagnostics == lint_paths([str(fixtures)], settings, prefilter=False).diagnostics


PROJECT = {
    "pkg/__init__.py": "",
    "pkg/maf.py": "from agent_framework import step as s\n",
    "pkg/reexport.py": "from pkg.maf import s\n",  # one hop
    "pkg/user.py": """
        from pkg.reexport import s  # two hops from agent_framework, never named here


        @s
        async def inner(x: str) -> str:
            return x


        @s
        async def outer(x: str) -> str:
            return await inner(x)
        """,
    "util/__init__.py": "",
    "util/plain.py": "import os\n\n\ndef size(path):\n    return os.path.getsize(path)\n",
    "util/uses_plain.py": "from util.plain import size\n\nprint(size('.'))\n",
}


def test_a_re_export_two_modules_away_counts(tmp_path):
    _write(tmp_path, PROJECT)
    run = _run([str(tmp_path)], tmp_path)
    reported = {(Path(d.path).name, d.line, d.code) for d in run.result.diagnostics}
    assert ("user.py", 12, "STP001") in reported
    checked = {Path(p).name for p in run.result.summaries}
    # Importers of a package that can define steps are checked; another package is not.
    assert "user.py" in checked and "plain.py" not in checked and "uses_plain.py" not in checked
    assert run.result.diagnostics == _run([str(tmp_path)], tmp_path, prefilter=False).result.diagnostics


def test_a_package_outside_the_linted_folder_is_scanned_on_disk(tmp_path):
    _write(tmp_path, PROJECT)
    (tmp_path / "pkg/sub").mkdir()
    _write(tmp_path, {"pkg/sub/__init__.py": "", "pkg/sub/more.py": PROJECT["pkg/user.py"]})
    run = _run([str(tmp_path / "pkg" / "sub")], tmp_path)
    assert {(Path(d.path).name, d.code) for d in run.result.diagnostics} == {("more.py", "STP001")}


def test_a_finding_in_a_skipped_file_is_still_reported(tmp_path):
    # helpers.py never mentions agent_framework, but steps.py makes a step of its function.
    _write(
        tmp_path,
        {
            "helpers.py": "def fetch(x: str) -> str:\n    return x\n",
            "steps.py": "from agent_framework import step\nfrom helpers import fetch\n\nfetch_step = step(fetch)\n",
        },
    )
    with_prefilter = _run([str(tmp_path)], tmp_path).result.diagnostics
    without = _run([str(tmp_path)], tmp_path, prefilter=False).result.diagnostics
    assert with_prefilter == without
    assert any(Path(d.path).name == "helpers.py" for d in without)


def test_files_without_agent_framework_are_not_parsed(tmp_path):
    _write(tmp_path, {f"plain_{i}.py": f"import os\nVALUE = {i}\n" for i in range(5)})
    for name in os.listdir(tmp_path):
        py_compile.compile(str(tmp_path / name), doraise=True)
    run = _run([str(tmp_path)], tmp_path)
    assert run.result.diagnostics == []
    assert (run.stats.checked, run.stats.summarized, run.stats.syntax_checked) == (0, 0, 0)


def test_a_skipped_file_without_bytecode_is_parsed_once_for_syntax_errors(tmp_path):
    _write(tmp_path, {"fine.py": "x = 1\n", "broken.py": "def broken(:\n    pass\n"})
    run = _run([str(tmp_path)], tmp_path)
    assert [(Path(d.path).name, d.code) for d in run.result.diagnostics] == [("broken.py", "STP900")]
    assert run.stats.syntax_checked == 2 and run.stats.checked == 1
    assert run.result.diagnostics == _run([str(tmp_path)], tmp_path, prefilter=False).result.diagnostics


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_skipped_file_a_checked_module_imported_is_not_parsed_again(tmp_path, jobs):
    """The check's summary of an import vouches for its syntax (in one process); an import that does not parse is
    still an STP900, and so is a broken namesake of a skipped file (the namesakes are checked together)."""
    files = {f"steps_{i}.py": "from agent_framework import step\nfrom helpers import fetch\n\n"
             "@step\nasync def s(x: str) -> str:\n    return fetch(x)\n" for i in range(40)}
    files.update({"helpers.py": "def fetch(x):\n    return x\n", "broken_helper.py": "def fetch(:\n",
                  "plain.py": "x = 1\n", "twin.py": "y = 2\n", "twin/__init__.py": "def z(:\n"})
    files["steps_0.py"] += "from broken_helper import fetch as other\n"
    _write(tmp_path, files)
    run = LintRun(Settings(project_root=tmp_path), jobs=jobs)
    result = run.run([str(tmp_path)])
    found = sorted((Path(d.path).relative_to(tmp_path).as_posix(), d.code) for d in result.diagnostics)
    assert found == [("broken_helper.py", "STP900"), ("twin/__init__.py", "STP900")]
    # helpers.py parsed in the check; broken_helper.py (its summary has an error), plain.py and the twins were parsed.
    # With workers, this process parses every skipped file while they check (it would wait idle): helpers.py too.
    assert run.stats.syntax_checked == (4 if jobs == 1 else 5)
    assert run.stats.checked == 40 + 3  # the steps, broken_helper.py, and twin.py with its broken namesake
    without = LintRun(Settings(project_root=tmp_path), jobs=jobs, prefilter=False).run([str(tmp_path)])
    assert result.diagnostics == without.diagnostics


def test_bytecode_proves_a_file_parses_only_for_its_exact_stat(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text("x = 1\n", encoding="utf-8")
    assert not compiled_by_this_python(str(path))
    py_compile.compile(str(path), doraise=True)
    assert compiled_by_this_python(str(path))
    path.write_text("x = 12\n", encoding="utf-8")  # a new size: the bytecode no longer vouches
    assert not compiled_by_this_python(str(path))


def test_bytecode_beside_the_file_vouches_under_a_pycache_prefix(tmp_path, monkeypatch):
    """An installed library's bytecode sits in its own __pycache__ even when PYTHONPYCACHEPREFIX is set."""
    path = tmp_path / "mod.py"
    path.write_text("x = 1\n", encoding="utf-8")
    py_compile.compile(str(path), cfile=str(tmp_path / "__pycache__" / f"mod.{sys.implementation.cache_tag}.pyc"), doraise=True)
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "elsewhere"))
    assert compiled_by_this_python(str(path))


def test_a_named_file_is_always_analyzed(tmp_path):
    _write(tmp_path, {"plain.py": "x = 1\n"})
    run = _run([str(tmp_path / "plain.py")], tmp_path)
    assert run.stats.checked == 1


@pytest.mark.parametrize(
    ("source", "heads", "relative"),
    [
        (b"import os, sys as system\n", {"os", "sys"}, False),
        (b"from a.b import c\nfrom . import d\n", {"a"}, True),
        (b"if x: import q; import z\n", {"q", "z"}, False),
        (b"from \\\n  pkg import t\n", {"pkg"}, False),
        (b"from \\\r\n  pkg import t\r\n", {"pkg"}, False),
        (b"import a, \\\n  b, \\\n c\n", {"a", "b", "c"}, False),
        (b"from \\\n . \\\n import t\n", set(), True),
        (b'y = "from"; import os\n', {"os"}, False),
        (b"from  ..up import t\n", set(), True),
    ],
)
def test_the_scan_finds_every_import(source, heads, relative):
    found = scan(source)
    assert found.heads >= heads and found.relative == relative


def test_the_scan_reads_declared_encodings_and_normalized_identifiers():
    latin = "# -*- coding: latin-1 -*-\nimport café\n".encode("latin-1")
    assert "café" in scan(latin).heads
    # Python reads identifiers NFKC-normalized: a fullwidth name is agent_framework.
    assert scan("from ａgent_framework import ｓtep\n".encode()).mentions
    assert scan("from ａgent_framework import ｓtep\n".encode()).factory_word


def test_the_scan_sends_suppression_comments_and_undecodable_bytes_to_analysis():
    assert scan(b"x = 1  # noqa: STP001\n").must_check
    assert scan(b"x = 1  # steplint: disable=STP001\n").must_check
    assert scan(b"x = 1  # NoQA:stp001\n").must_check  # noqa comments are read case-insensitively
    assert not scan(b"x = 1  # STEPLINT: disable=STP001\n").must_check  # directives are not
    assert not scan(b"x = 1  # noqa: E501\n").must_check
    assert scan(b"x = '\xff\xfe'\n").must_check


_NOQA_PIECES = st.tuples(
    st.sampled_from(["x = 1  ", "", "call()  # first comment ", "s = '#'  "]),
    st.sampled_from(["#", "# ", "#\t", "#  \u3000"]),
    st.sampled_from(["noqa", "NOQA", "NoQa", "nOqA"]),
    st.sampled_from([":", ": ", "", " ", ":\t"]),
    st.sampled_from(["STP001", "stp001", "Stp0", "E501", "E501,STP001", "E501 sTp100", "\u017ftp001", ""]),
)


@given(_NOQA_PIECES)
def test_every_noqa_naming_a_steplint_code_sends_its_file_to_analysis(pieces):
    """The scan's cheap test never misses a comment the suppression reader takes for ``# noqa: STP...``."""
    line = "".join(pieces) + "\n"
    codes = [code for codes in scan_suppressions(line).noqa.values() for code in codes]
    if any(code.startswith("STP") for code in codes):
        assert scan(line.encode()).must_check, line


@pytest.mark.parametrize(
    "source",
    [
        "from agent_framework import step\n",
        "from agent_framework import (\n    Agent,\n    workflow as flow,\n)\n",
        "from agent_framework import Agent, \\\n    StepWrapper\n",
        "import agent_framework as af\n\n@af.step\nasync def a(): ...\n",
        "import agent_framework as af\ndeco = (af\n    .workflow)\n",
        "import agent_framework as af\ndeco = getattr(af, 'step')\n",
        "from agent_framework import *\n\n@step\nasync def a(): ...\n",
        "from agent_framework import (\n    *\n)\nx = step\n",
    ],
    ids=["import", "import-list", "continued-import", "attribute", "attribute-over-lines", "quoted", "star",
         "star-in-brackets"],
)
def test_a_factory_word_that_can_name_the_framework_s_counts(source):
    assert scan(source.encode()).factory_reference


@pytest.mark.parametrize(
    "source",
    [
        "from agent_framework import WorkflowBuilder\nworkflow = WorkflowBuilder().build()\n",
        "from agent_framework import Agent\n\ndef run(step: int) -> None:\n    print(step)\n",
        "from agent_framework import Agent\n# the next step is the workflow\n",
        "from agent_framework import Agent\nsteps = [s for s in range(3)]\n",
        "from agent_framework import Agent\nreimport *args\nstep = 1\n",
    ],
    ids=["a-variable", "a-parameter", "a-comment", "a-longer-word", "a-word-ending-in-import"],
)
def test_a_bare_factory_word_is_no_reference(source):
    found = scan(source.encode())
    assert found.mentions and not found.factory_reference


def test_a_file_whose_workflow_is_a_local_variable_is_not_analyzed(tmp_path):
    _write(tmp_path, {
        "graph.py": "from agent_framework import WorkflowBuilder\nworkflow = WorkflowBuilder().build()\n",
        "flow.py": """\
            from agent_framework import step

            @step
            async def inner(x: str) -> str:
                return x

            @step
            async def outer(x: str) -> str:
                return await inner(x)
            """,
    })
    run = _run([str(tmp_path)], tmp_path)
    assert [(Path(d.path).name, d.code) for d in run.result.diagnostics] == [("flow.py", "STP001")]
    assert run.stats.checked == 1


def test_the_quick_syntax_check_of_skipped_files_agrees_with_the_parser(tmp_path):
    from steplint.run.source_reads import parses

    files = {
        "fine.py": "x = 1\n",
        "broken.py": "def broken(:\n    pass\n",
        # The symbol table refuses these, the parser does not: no STP900, as for an analyzed file.
        "module_nonlocal.py": "nonlocal x\n",
        "both_global.py": "def f(a):\n    global a\n",
    }
    _write(tmp_path, files)
    assert {name: parses(str(tmp_path / name)) for name in files} == {
        "fine.py": True, "broken.py": False, "module_nonlocal.py": True, "both_global.py": True,
    }
    run = _run([str(tmp_path)], tmp_path)
    assert [(Path(d.path).name, d.code) for d in run.result.diagnostics] == [("broken.py", "STP900")]
