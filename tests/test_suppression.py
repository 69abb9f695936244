"""Suppression: noqa (flake8's prefix matching), steplint: disable/disable-file, per-file-ignores, --disable-noqa, STP100."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_samples import nested, steplint

from steplint.config.settings import Settings
from steplint.api import lint_paths
from steplint.report.suppression import glob_matches, per_file_ignores
from steplint.source.reading import parse_text
from steplint.summaries.suppression_comments import scan_suppressions

def lint(tmp_path: Path, comment: str = "", use_noqa: bool = True, **settings) -> list[tuple[int, str]]:
    (tmp_path / "nested.py").write_text(nested(comment))
    result = lint_paths([str(tmp_path / "nested.py")], Settings(project_root=tmp_path, **settings), use_noqa=use_noqa)
    return [(d.line, d.code) for d in result.diagnostics]


# --- comments -------------------------------------------------------------------


def test_noqa_forms_and_where_the_directive_is():
    text = (
        "a = 1  # noqa: STP001\n"
        "b = 2  # NOQA:stp001,STP010\n"
        "c = 3  # noqa\n"
        "d = 4  #noqa: STP0 E501\n"
        "e = '# noqa: STP001'\n"
        "f = 5  # type: ignore  # noqa: STP002\n"
    )
    found = scan_suppressions(text)
    assert found.noqa == {1: ("STP001",), 2: ("STP001", "STP010"), 3: (), 4: ("STP0", "E501"), 6: ("STP002",)}
    assert found.noqa_spans[1] == (7, 21)
    assert text.splitlines()[5][slice(*found.noqa_spans[6])] == "# noqa: STP002"


def test_noqa_with_a_colon_but_no_code_is_bare_as_in_flake8():
    assert scan_suppressions("x = 1  # noqa: this is fine\n").noqa == {1: ()}


def test_steplint_directives():
    found = scan_suppressions(
        "a = 1  # steplint: disable=STP001, stp010 because the inner step is pure\n"
        "# steplint: disable-file=STP030\n"
        "b = 2\n"
        "# steplint: disable-file=all\n"
    )
    assert found.disabled == {1: ("STP001", "STP010")}
    assert found.file_disabled == ("STP030", "*")


def test_a_directive_in_a_string_is_not_one():
    found = scan_suppressions('s = """\n# steplint: disable-file=STP001\n"""  # noqa: STP002\n')
    assert found.file_disabled == ()
    assert found.noqa == {3: ("STP002",)}


# --- inline suppression -----------------------------------------------------------------


@pytest.mark.parametrize(
    "comment, silenced",
    [
        ("", False),
        ("  # noqa", True),
        ("  # noqa: STP001", True),
        ("  # noqa: STP0", True),  # a prefix silences every code it starts
        ("  # noqa: STP", True),  # no code (letters then digits): a bare noqa, as in flake8
        ("  # noqa: STP002", False),
        ("  # noqa: STP0010", False),
        ("  # noqa: E501", False),
        ("  # steplint: disable=STP001", True),
        ("  # steplint: disable=STP00", True),
        ("  # steplint: disable=STP002", False),
        ("  # steplint: disable=all", True),
    ],
)
def test_inline_comment_on_the_reported_line(tmp_path, comment, silenced):
    assert lint(tmp_path, comment) == ([] if silenced else [(9, "STP001")])


def test_noqa_with_a_colon_and_nothing_after_it_is_bare(tmp_path):
    assert lint(tmp_path, "  # noqa:") == []


def test_disable_file_anywhere(tmp_path):
    (tmp_path / "nested.py").write_text(nested() + "# steplint: disable-file=STP001\n")
    assert lint_paths([str(tmp_path / "nested.py")], Settings(project_root=tmp_path)).diagnostics == []


def test_disable_noqa_keeps_steplint_directives(tmp_path):
    assert lint(tmp_path, "  # noqa: STP001", use_noqa=False) == [(9, "STP001")]
    assert lint(tmp_path, "  # steplint: disable=STP001", use_noqa=False) == []


# --- per-file-ignores ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "relative, pattern, matches",
    [
        ("tests/test_a.py", "tests/*", True),
        ("tests/unit/test_a.py", "tests/*", True),  # fnmatch's * crosses folders, as in ruff's default
        ("tests/test_a.py", "tests/", True),
        ("tests/unit/test_a.py", "tests/**", True),
        ("tests/test_a.py", "./tests/*.py", True),
        ("src/tests/test_a.py", "tests/*", False),  # anchored at the config folder
        ("src/app/test_a.py", "test_*.py", True),  # no slash: a file name anywhere
        ("src/legacy/old.py", "legacy", True),  # ... or a folder name anywhere
        ("src/app/flow.py", "test_*.py", False),
        ("test_top.py", "**/test_*.py", True),
        ("a/b/test_deep.py", "**/test_*.py", True),
        (".hidden/x.py", "./.hidden/*", True),
        ("hidden/x.py", "./.hidden/*", False),
    ],
)
def test_per_file_ignores_globs(relative, pattern, matches):
    assert glob_matches(relative, "/project/" + relative, pattern) is matches


def test_per_file_ignores_all(tmp_path):
    settings = dict(per_file_ignores={"nested.py": ("ALL",)}, config_file=tmp_path / "pyproject.toml")
    assert lint(tmp_path, **settings) == []


def test_per_file_ignores_are_relative_to_the_config_folder(tmp_path):
    project = tmp_path / "project"
    (project / "tests").mkdir(parents=True)
    config = project / "pyproject.toml"
    settings = Settings(per_file_ignores={"tests/*": ("stp001",)}, config_file=config, project_root=project)
    assert per_file_ignores(str(project / "tests" / "t.py"), settings) == ("STP001",)
    assert per_file_ignores(str(project / "src" / "tests" / "t.py"), settings) == ()
    old = os.getcwd()
    os.chdir(project / "tests")  # a relative path from anywhere means the same file
    try:
        assert per_file_ignores("t.py", settings) == ("STP001",)
    finally:
        os.chdir(old)


# --- STP100 -----------------------------------------------------------------------------


def test_stp100_reports_a_noqa_code_that_silences_nothing(tmp_path):
    assert lint(tmp_path, "  # noqa: STP001", extend_select=("STP100",)) == []
    assert lint(tmp_path, "  # noqa: STP001, STP002", extend_select=("STP100",)) == [(9, "STP100")]
    assert lint(tmp_path, "  # noqa: STP001, E501", extend_select=("STP100",)) == []


def test_stp100_leaves_codes_of_rules_that_did_not_run(tmp_path):
    # STP0 also names STP010, which --select leaves out: had it run, the comment might be needed.
    assert lint(tmp_path, "  # noqa: STP0", select=("STP002", "STP100")) == []
    assert lint(tmp_path, "  # noqa: STP010", select=("STP001", "STP100")) == [(9, "STP001")]
    assert lint(tmp_path, "  # noqa: STP010", select=("STP001", "STP010", "STP100")) == [(9, "STP001"), (9, "STP100")]


def test_stp100_counts_a_code_used_when_another_comment_also_silences(tmp_path):
    comment = "  # steplint: disable=STP001  # noqa: STP001"
    assert lint(tmp_path, comment, extend_select=("STP100",)) == []
    config = tmp_path / "pyproject.toml"
    settings = dict(per_file_ignores={"nested.py": ("STP001",)}, config_file=config, extend_select=("STP100",))
    assert lint(tmp_path, "  # noqa: STP001", **settings) == []


def test_stp100_is_silent_under_disable_noqa_and_in_a_broken_file(tmp_path):
    assert lint(tmp_path, "  # noqa: STP002", use_noqa=False, extend_select=("STP100",)) == [(9, "STP001")]
    (tmp_path / "broken.py").write_text("def broken(:\n    return await tick(x)  # noqa: STP001\n")
    result = lint_paths([str(tmp_path / "broken.py")], Settings(project_root=tmp_path, extend_select=("STP100",)))
    assert [d.code for d in result.diagnostics] == ["STP900"]


def test_stp100_can_itself_be_silenced(tmp_path):
    assert lint(tmp_path, "  # noqa: STP001, STP002, STP100", extend_select=("STP100",)) == []
    assert lint(tmp_path, "  # noqa: STP002  # steplint: disable=STP100", extend_select=("STP100",)) == [(9, "STP001")]


# --- CLI ----------------------------------------------------------------------------------


def test_cli_disable_noqa(tmp_path):
    (tmp_path / "nested.py").write_text(nested("  # noqa: STP001"))
    assert steplint("nested.py", cwd=tmp_path).returncode == 0
    result = steplint("--disable-noqa", "nested.py", cwd=tmp_path)
    assert result.returncode == 1 and "nested.py:9:18: STP001" in result.stdout
    result = steplint("--disable-noqa", "--extend-select", "STP100", "nested.py", cwd=tmp_path)
    assert "STP100" not in result.stdout


def test_cli_per_file_ignores_from_a_parent_config(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.steplint.per-file-ignores]\n"pkg/*" = ["STP001"]\n')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "nested.py").write_text(nested())
    (tmp_path / "nested.py").write_text(nested())
    assert steplint("nested.py", cwd=tmp_path / "pkg").returncode == 0  # run from inside pkg/: still pkg/*
    result = steplint("-q", ".", cwd=tmp_path)
    assert result.returncode == 1 and result.stdout.splitlines() == [
        line for line in result.stdout.splitlines() if line.startswith("nested.py:")
    ]


def test_cli_stp100_message(tmp_path):
    (tmp_path / "nested.py").write_text(nested("  # noqa: STP001, STP002"))
    result = steplint("--extend-select", "STP100", "nested.py", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == (
        "nested.py:9:27: STP100 warning: [*] unused noqa: STP002 silences nothing on this line; remove it\n"
        "Found 1 finding (1 warning).\n[*] 1 fixable with `--fix`.\n"
    )


_STRINGS_AND_COMMENTS = '''\
import pytest
doc = """text
# noqa: STP001 inside a docstring
"""  # noqa: STP002
joined = (
    "first part "  # noqa: STP010
    "second part # noqa: STP011"
)
shout = f"{doc!r} # noqa: STP012"  # noqa: STP013
emoji = "🎉 # noqa: STP020"  # noqa: STP030
@pytest.mark.parametrize("case", ["  # noqa: STP040"])  # steplint: disable=STP041
def test(case): pass
'''


def test_directives_inside_strings_are_not_comments():
    by_tree = scan_suppressions(_STRINGS_AND_COMMENTS, parse_text(_STRINGS_AND_COMMENTS))
    assert by_tree.noqa == {4: ("STP002",), 6: ("STP010",), 9: ("STP013",), 10: ("STP030",)}
    assert by_tree.disabled == {11: ("STP041",)}
    assert by_tree.noqa_spans[10] == (len('emoji = "🎉 # noqa: STP020"  '), len('emoji = "🎉 # noqa: STP020"  # noqa: STP030'))
    assert by_tree == scan_suppressions(_STRINGS_AND_COMMENTS)  # what tokenize finds, for a file that does not parse


# --- file-level exemptions: ruff's and flake8's ------------------------------------------------------


def test_file_level_noqa_forms():
    found = scan_suppressions(
        "# ruff: noqa: STP001, E501\n"
        "x = 1  # ruff: noqa: STP002\n"  # after code: ruff ignores it, and so does steplint
        "    # flake8: noqa\n"
        "#steplint:noqa:stp0\n"
        "# RUFF: noqa\n"  # ruff's prefix is lower-case
        "s = '# ruff: noqa'\n"
    )
    assert found.file_noqa == {1: ("STP001", "E501"), 3: (), 4: ("STP0",)}
    assert found.file_noqa_spans[1] == (0, 26) and found.noqa == {}


@pytest.mark.parametrize("comment, silenced", [
    ("# ruff: noqa: STP001", True),
    ("# ruff: noqa: STP040", False),
    ("# ruff: noqa", True),
    ("# flake8: noqa", True),
    ("# flake8: noqa: STP001", True),  # ruff reads the codes of flake8's form too
    ("# flake8: noqa: E501", False),
    ("# steplint: noqa: STP0", True),
])
def test_cli_file_level_noqa_anywhere_on_its_own_line(tmp_path, comment, silenced):
    (tmp_path / "top.py").write_text(f"{comment}\n{nested()}")
    (tmp_path / "bottom.py").write_text(f"{nested()}{comment}\n")
    for name in ("top.py", "bottom.py"):
        result = steplint("--no-cache", name, cwd=tmp_path)
        assert result.returncode == (0 if silenced else 1), result.stdout
    assert steplint("--no-cache", "--disable-noqa", "top.py", cwd=tmp_path).returncode == 1


def test_cli_stp100_judges_file_level_codes(tmp_path):
    (tmp_path / "nested.py").write_text("# ruff: noqa: STP001, STP040\n# flake8: noqa: STP002\n" + nested())
    result = steplint("--no-cache", "--extend-select", "STP100", "nested.py", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == (
        "nested.py:1:1: STP100 warning: [*] unused noqa: STP040 silences nothing in this file; remove it\n"
        "nested.py:2:1: STP100 warning: [*] unused noqa: STP002 silences nothing in this file; remove it\n"
        "Found 2 findings (2 warnings).\n[*] 2 fixable with `--fix`.\n"
    )
    fixed = steplint("--no-cache", "--extend-select", "STP100", "--fix", "nested.py", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout
    assert (tmp_path / "nested.py").read_text().splitlines()[:3] == ["# ruff: noqa: STP001", "", "from agent_framework import step"]
    (tmp_path / "nested.py").write_text("# ruff: noqa: STP040\n# flake8: noqa\n" + nested())
    blanket = steplint("--no-cache", "--extend-select", "STP100", "nested.py", cwd=tmp_path)
    assert blanket.returncode == 0, blanket.stdout  # a bare one exempts the whole file, STP100 too, as in ruff
