"""Filesystem and pipe faults on the real thing: link loops inside an imported package, package folders whose
names are not identifiers, and a reader that closes the pipe early. None of them may crash a run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cli_samples import nested, steplint

from steplint.source.module_identity import forget_folders, module_name

IMPORTS_LIB = """\
from agent_framework import step

from lib.steps import tick


@step
async def outer(x: str) -> str:
    return await tick(x)
"""
LIB_STEPS = "from agent_framework import step\n\n@step\nasync def tick(x: str) -> str:\n    return x\n"


def _library(root: Path) -> Path:
    lib = root / "lib"
    (lib / "inner").mkdir(parents=True)
    (lib / "__init__.py").write_text("")
    (lib / "steps.py").write_text(LIB_STEPS)
    (lib / "inner" / "__init__.py").write_text("")
    return lib


def test_a_link_loop_inside_an_imported_package_is_walked_once(tmp_path):
    lib = _library(tmp_path)
    (lib / "inner" / "again").symlink_to(lib, target_is_directory=True)  # a loop through a directory link
    (lib / "a").symlink_to(lib / "b")  # a loop of links: ELOOP on every stat
    (lib / "b").symlink_to(lib / "a")
    (tmp_path / "flow.py").write_text(IMPORTS_LIB)
    # A folder linted as a whole walks lib too (discovery), and flow.py's import makes the prefilter walk it.
    for target in ("flow.py", "."):
        done = steplint("--no-cache", target, cwd=tmp_path)
        assert done.returncode == 1, done.stderr
        assert "internal error" not in done.stderr and "Traceback" not in done.stderr
        assert "flow.py:8:18: STP001" in done.stdout


def test_an_unreadable_folder_inside_an_imported_package_is_left_out(tmp_path):
    lib = _library(tmp_path)
    (lib / "gone").symlink_to(tmp_path / "nowhere", target_is_directory=True)  # a dangling directory link
    (tmp_path / "flow.py").write_text(IMPORTS_LIB)
    done = steplint("--no-cache", "flow.py", cwd=tmp_path)
    assert done.returncode == 1 and "flow.py:8:18: STP001" in done.stdout, done.stderr


def test_a_folder_whose_name_is_not_an_identifier_is_never_a_package_part(tmp_path):
    made = tmp_path / "tmp.AbC123"  # what mktemp -d makes
    made.mkdir()
    (made / "__init__.py").write_text("")
    (made / "flow.py").write_text(nested())
    forget_folders()
    assert module_name(made / "flow.py") == ("flow", False)
    assert module_name(made / "__init__.py")[1] is True
    project = tmp_path / "my.project" / "pkg"
    project.mkdir(parents=True)
    (tmp_path / "my.project" / "__init__.py").write_text("")
    (project / "__init__.py").write_text("")
    forget_folders()
    assert module_name(project / "mod.py") == ("pkg.mod", False)


def test_linting_a_dotted_folder_reads_nothing_around_it(tmp_path):
    made = tmp_path / "work" / "tmp.AbC123"
    made.mkdir(parents=True)
    (made / "__init__.py").write_text("")
    (made / "flow.py").write_text(nested())
    # Read as module "tmp.AbC123.flow", its package "tmp" would be looked for two folders up: put one there.
    sibling = tmp_path / "tmp"
    sibling.mkdir()
    for index in range(20):
        (sibling / f"m{index}.py").write_text("x = 1\n")
    done = steplint("--no-cache", "-v", str(made), cwd=tmp_path / "work")
    assert done.returncode == 1 and "flow.py:9:18: STP001" in done.stdout
    assert "2 file(s) read" in done.stderr, done.stderr  # __init__.py and flow.py, nothing from tmp/


def test_a_reader_that_closes_the_pipe_early_gets_a_quiet_exit(tmp_path):
    many = "\n".join(nested().replace("wrapper", f"wrapper{index}").split("\n", 2)[2] for index in range(400))
    (tmp_path / "many.py").write_text("from agent_framework import step\n\n" + many)
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    for args in (["--no-cache", "many.py"], ["rule", "--all"], ["--format", "json", "--no-cache", "many.py"]):
        process = subprocess.Popen([sys.executable, "-m", "steplint", *args], cwd=tmp_path, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=environment)
        process.stdout.readline()
        process.stdout.close()  # as `| head -1` does
        _, error = process.communicate(timeout=120)
        assert error == b"", (args, error.decode()[-1000:])
        if args[0] == "rule":
            # About 26 KB of docs fit in a pipe's 64 KB buffer: the writer may finish before the reader
            # closes (exit 0) or meet the closed pipe (exit 1); either way, quietly.
            assert process.returncode in (0, 1), args
        else:
            assert process.returncode == 1, args  # findings, and 400 of them overflow the pipe's buffer
