"""What a ruff user types works the same, each through a real ``steplint`` subprocess: the configuration keys that
set what a flag sets, the ``[tool.steplint.lint]`` table, ``--config KEY=VALUE``, ``--fix-only``, ``--unfixable``,
``--extend-per-file-ignores``, ``steplint version``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_samples import nested, steplint

NESTED = nested()  # STP001 at 9:18, an unsafe fix
FIXED = nested().replace("await tick(x)", "await tick.__wrapped__(x)")


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "nested.py").write_text(NESTED)
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.py").write_text(NESTED)
    return tmp_path


def configure(project: Path, text: str) -> None:
    (project / "pyproject.toml").write_text(f"[project]\nname = 'sample'\nversion = '0'\n\n{text}")


def codes(output: str) -> list[tuple[str, str]]:
    return [(line.split(":")[0], line.split(": ")[1].split()[0]) for line in output.splitlines() if ": STP" in line]


def test_keys_that_set_what_flags_set(project):
    configure(project, '[tool.steplint]\nextend-exclude = ["legacy/"]\nforce-exclude = true\noutput-format = "json"\n'
                       'fix = true\nunsafe-fixes = true\n')
    done = steplint("--no-cache", "nested.py", "legacy/old.py", cwd=project)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [] and done.stderr == "Fixed 1 finding in 1 file; 0 remaining.\n"
    assert (project / "nested.py").read_text() == FIXED and (project / "legacy" / "old.py").read_text() == NESTED
    # A flag wins over its key.
    done = steplint("--no-cache", "--no-force-exclude", "--no-fix", "--format", "concise", "legacy/old.py", cwd=project)
    assert done.returncode == 1 and codes(done.stdout) == [("legacy/old.py", "STP001")]


def test_include_and_cache_dir(project):
    configure(project, '[tool.steplint]\ninclude = ["legacy/*.py"]\ncache-dir = "build/cache"\n')
    done = steplint("--show-files", ".", cwd=project)
    assert done.stdout == "legacy/old.py\n"
    steplint(".", cwd=project)
    assert (project / "build" / "cache").is_dir() and not (project / ".steplint_cache").exists()


def test_the_lint_table_holds_ruffs_lint_keys(project):
    configure(project, '[tool.steplint]\nselect = ["STP0"]\n\n[tool.steplint.lint]\nignore = ["STP001"]\n')
    assert steplint("--no-cache", "nested.py", cwd=project).stdout == "All checks passed!\n"
    configure(project, '[tool.steplint.lint]\nexclude = ["x"]\n')
    done = steplint("nested.py", cwd=project)
    assert done.returncode == 2 and "unknown key 'exclude' in [tool.steplint.lint]" in done.stderr


def test_inline_config_is_a_toml_line(project):
    configure(project, '[tool.steplint]\nignore = ["STP001"]\n')
    done = steplint("--no-cache", "--config", "ignore = []", "--format", "concise", "nested.py", cwd=project)
    assert codes(done.stdout) == [("nested.py", "STP001")]
    done = steplint("--no-cache", "--config", "lint.unfixable = ['STP0']", "--config", "ignore = []", "nested.py",
                    cwd=project)
    assert "[*]" not in done.stdout and "hidden fix" not in done.stdout
    done = steplint("--config", "target-version = 1.19", "nested.py", cwd=project)
    assert done.returncode == 2 and "--config: 'target-version' must be a quoted version" in done.stderr
    done = steplint("--config", "select = [STP", "nested.py", cwd=project)
    assert done.returncode == 2 and "is neither a file nor a TOML 'key = value' setting" in done.stderr
    assert "Traceback" not in done.stderr
    done = steplint("--config", "missing.toml", "nested.py", cwd=project)
    assert done.returncode == 2 and "config file not found: missing.toml" in done.stderr


def test_fix_only_reports_nothing_that_is_left(project):
    done = steplint("--no-cache", "--fix-only", "nested.py", cwd=project)
    assert (done.returncode, done.stdout) == (0, "No fixes applied.\n")  # the fix is unsafe
    done = steplint("--no-cache", "--fix-only", "--unsafe-fixes", "--exit-non-zero-on-fix", "nested.py", cwd=project)
    assert (done.returncode, done.stdout) == (1, "Fixed 1 finding.\n")
    assert (project / "nested.py").read_text() == FIXED


def test_unfixable_and_extend_per_file_ignores(project):
    done = steplint("--no-cache", "--fix", "--unsafe-fixes", "--unfixable", "STP001", "nested.py", cwd=project)
    assert done.returncode == 1 and (project / "nested.py").read_text() == NESTED
    done = steplint("--no-cache", "--extend-per-file-ignores", "legacy/*:STP001", ".", cwd=project)
    assert codes(done.stdout) == [("nested.py", "STP001")]
    done = steplint("--extend-per-file-ignores", "STP001", ".", cwd=project)
    assert done.returncode == 2 and "is not PATTERN:CODE" in done.stderr


def test_version_is_a_command(project):
    from steplint._version import __version__

    assert steplint("version", cwd=project).stdout == f"steplint {__version__}\n"
    assert json.loads(steplint("version", "--output-format", "json", cwd=project).stdout) == {"version": __version__}


# --- graph, and --isolated's cache --------------------------------------------------------------


def test_graph_reports_a_broken_or_missing_input(project):
    (project / "broken.py").write_text("def broken(:\n    pass\n")
    done = steplint("graph", "--isolated", "broken.py", "nested.py", "missing.py", cwd=project)
    assert done.returncode == 1 and done.stdout.startswith("flowchart TD")
    assert [line.split(": ")[0].rsplit(":", 2)[0] + " " + line.split(": ")[1].split()[0]
            for line in done.stderr.splitlines()] == ["broken.py STP900", "missing.py STP900"]
    done = steplint("graph", "--isolated", "--calls", "broken.py", cwd=project)
    assert done.returncode == 1 and json.loads(done.stdout) == {} and "broken.py:1:12: STP900" in done.stderr
    assert steplint("graph", "--isolated", "nested.py", cwd=project).returncode == 0


def test_graph_calls_implies_json(project):
    done = steplint("graph", "--isolated", "--calls", "nested.py", cwd=project)
    assert done.returncode == 0 and json.loads(done.stdout)["nested.wrapper"] == ["nested.tick"]
    done = steplint("graph", "--calls", "--format", "dot", "nested.py", cwd=project)
    assert done.returncode == 2 and "--calls prints JSON, not dot" in done.stderr


def test_isolated_writes_no_cache_into_the_project(project):
    steplint("--isolated", "nested.py", cwd=project)
    steplint("graph", "--isolated", "nested.py", cwd=project)
    assert not (project / ".steplint_cache").exists()
    steplint("--isolated", "--cache-dir", str(project / "elsewhere"), "nested.py", cwd=project)
    assert (project / "elsewhere").is_dir()


def test_show_settings_shows_the_new_keys(project):
    configure(project, '[tool.steplint]\nforce-exclude = true\noutput-format = "grouped"\n\n'
                       '[tool.steplint.lint]\nunfixable = ["STP001"]\n')
    text = steplint("--show-settings", "nested.py", cwd=project).stdout
    assert "force-exclude: true\n" in text and "unfixable: [STP001]\n" in text and "output-format: grouped\n" in text
    record = json.loads(steplint("--show-settings", "--format", "json", "nested.py", cwd=project).stdout)
    assert (record["force_exclude"], record["unfixable"], record["include"]) == (True, ["STP001"], None)


@pytest.mark.parametrize("where", ["flag", "key", "inline"])
def test_a_python_release_as_target_version_points_at_target_python(project, where):
    """ruff's ``--target-version py311`` is the Python; steplint's is agent-framework-core's release."""
    if where == "key":
        configure(project, '[tool.steplint]\ntarget-version = "py311"\n')
    given = {"flag": ("--target-version", "py311"), "inline": ("--config", 'target-version = "py311"'), "key": ()}[where]
    done = steplint(*given, "nested.py", cwd=project)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "'py311' is a Python release, but target-version is agent-framework-core's (e.g. 1.21): " \
           "for the Python, use --target-python 3.11 (target-python = \"3.11\")" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
