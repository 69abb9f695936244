"""The pre-commit hooks, through the real pre-commit.

pre-commit clones a hooks repository at a commit, so the tests commit a
snapshot of this working tree (the package, pyproject.toml and
.pre-commit-hooks.yaml) into a throwaway repository, and point the README's
``.pre-commit-config.yaml`` snippet at it. The hook's environment is built
once per test run: every xdist worker shares one PRE_COMMIT_HOME, and
pre-commit's own lock on it makes the others wait and reuse it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml
from integrations import CLEAN, FLOW, FLOW_FINDING, ROOT, make_project, snippet
from package_layout import package_folders

SNAPSHOT = (
    "pyproject.toml", "README.md", ".pre-commit-hooks.yaml",
    *(str(folder.relative_to(ROOT)) for folder in package_folders().values()),
)
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "steplint tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "steplint tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
}
INSTALL_TIMEOUT = 900  # the first run builds the hook's virtualenv from PyPI


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        env={**os.environ, **GIT_IDENTITY},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@contextmanager
def locked(path: Path):
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def shared_dir(tmp_path_factory, worker_id) -> Path:
    """A folder of this test run that every xdist worker sees."""
    base = tmp_path_factory.getbasetemp()
    return base if worker_id == "master" else base.parent


@pytest.fixture(scope="session")
def hooks_repo(shared_dir: Path) -> tuple[Path, str]:
    """A repository whose one commit is this working tree's package and hooks file: (path, sha)."""
    repo = shared_dir / "steplint-hooks-repo"
    with locked(shared_dir / "steplint-hooks-repo.lock"):
        if not (repo / ".git").is_dir():
            staging = shared_dir / "steplint-hooks-repo.partial"
            shutil.rmtree(staging, ignore_errors=True)
            staging.mkdir()
            for name in SNAPSHOT:
                source = ROOT / name
                if source.is_dir():
                    shutil.copytree(source, staging / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
                else:
                    shutil.copy2(source, staging / name)
            git("init", "-q", cwd=staging)
            git("add", ".", cwd=staging)
            git("commit", "-q", "-m", "snapshot of the working tree", cwd=staging)
            staging.rename(repo)
        return repo, git("rev-parse", "HEAD", cwd=repo)


@pytest.fixture(scope="session")
def pre_commit_home(shared_dir: Path) -> Path:
    home = shared_dir / "pre-commit-home"
    home.mkdir(exist_ok=True)
    return home


def config_for(hooks_repo: tuple[Path, str], hook_ids: list[str] | None = None) -> str:
    """The README's .pre-commit-config.yaml, pointed at the snapshot."""
    config = yaml.safe_load(snippet("pre-commit", "yaml"))
    (entry,) = config["repos"]
    assert entry["repo"] == "https://github.com/steplint/steplint"
    entry["repo"], entry["rev"] = str(hooks_repo[0]), hooks_repo[1]
    if hook_ids is not None:
        entry["hooks"] = [{"id": hook_id} for hook_id in hook_ids]
    return yaml.safe_dump(config)


@pytest.fixture()
def project(tmp_path: Path, hooks_repo) -> Path:
    """A git repository with the sample project committed; pkg/flow.py is not added yet."""
    make_project(tmp_path)
    flow = (tmp_path / "pkg" / "flow.py").read_text()
    (tmp_path / "pkg" / "flow.py").unlink()
    (tmp_path / ".pre-commit-config.yaml").write_text(config_for(hooks_repo))
    git("init", "-q", cwd=tmp_path)
    git("add", ".", cwd=tmp_path)
    git("commit", "-q", "-m", "the project so far", cwd=tmp_path)
    (tmp_path / "pkg" / "flow.py").write_text(flow)
    return tmp_path


def pre_commit(project: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--color", "never", *args],
        cwd=project,
        env={**os.environ, **GIT_IDENTITY, "PRE_COMMIT_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT,
    )


def test_hooks_file_declares_both_hooks():
    hooks = {hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"steplint", "steplint-fix"}
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["types_or"] == ["python", "pyi", "jupyter"]  # as ruff's hooks: notebooks too
        assert hook["require_serial"] is True
        assert hook["entry"] == "steplint check --force-exclude"  # pre-commit names files; the excludes still apply
    assert hooks["steplint-fix"]["args"] == ["--fix"]


def test_the_projects_excludes_apply_to_the_files_pre_commit_names(project, pre_commit_home):
    with (project / "pyproject.toml").open("a") as config:
        config.write('extend-exclude = ["legacy/"]\n')
    (project / "legacy").mkdir()
    shutil.copy(ROOT / "fixtures" / "repro_9383.py", project / "legacy" / "old.py")
    (project / "clean.py").write_text(CLEAN)
    done = pre_commit(project, pre_commit_home, "steplint", "--files", "legacy/old.py", "clean.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "legacy/old.py" not in done.stdout and "Passed" in done.stdout


def test_fails_on_the_reproduction(project, pre_commit_home):
    shutil.copy(ROOT / "fixtures" / "repro_9383.py", project / "repro.py")
    done = pre_commit(project, pre_commit_home, "steplint", "--files", "repro.py")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "repro.py:24:18: STP001 error: step 'wrapper' calls step 'tick'" in done.stdout
    assert "Found 3 findings (3 errors)." in done.stdout
    assert "repro.py:15:16: STP010" in done.stdout and "repro.py:23:19: STP010" in done.stdout


def test_a_notebook_the_hook_is_given_is_linted(project, pre_commit_home):
    for name in ("orders.ipynb", "order_billing.py"):
        shutil.copy(ROOT / "fixtures" / "notebook_workflow" / name, project / name)
    done = pre_commit(project, pre_commit_home, "steplint", "--files", "orders.ipynb")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "orders.ipynb:cell 5:3:18: STP001 " in done.stdout and "orders.ipynb:cell 5:5:18: STP001 " in done.stdout


def test_passes_on_clean_code(project, pre_commit_home):
    (project / "clean.py").write_text(CLEAN)
    (project / "notes.txt").write_text("not python: the hook never sees it\n")
    done = pre_commit(project, pre_commit_home, "steplint", "--files", "clean.py", "notes.txt", "pkg/__init__.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout


def test_only_staged_files_are_reported_and_the_rest_of_the_project_is_read(project, pre_commit_home):
    git("add", "pkg/flow.py", cwd=project)
    done = pre_commit(project, pre_commit_home, "steplint")  # no --files: what is staged
    assert done.returncode == 1, done.stdout + done.stderr
    path, line, column, code = FLOW_FINDING
    assert f"{path}:{line}:{column}: {code} warning: step 'wrapper' calls step 'tick'" in done.stdout  # tick: from pkg/steps.py
    assert "pkg/steps.py" not in done.stdout  # its own finding is not this commit's business
    assert "STP040" not in done.stdout  # the project's [tool.steplint] ignore


def test_fix_hook_runs(project, pre_commit_home, hooks_repo):
    (project / ".pre-commit-config.yaml").write_text(config_for(hooks_repo, ["steplint-fix"]))
    git("add", ".pre-commit-config.yaml", cwd=project)
    (project / "clean.py").write_text(CLEAN)
    done = pre_commit(project, pre_commit_home, "steplint-fix", "--files", "clean.py")
    assert done.returncode == 0, done.stdout + done.stderr
    (project / "pkg" / "flow.py").write_text(FLOW)
    done = pre_commit(project, pre_commit_home, "steplint-fix", "--files", "pkg/flow.py")
    assert done.returncode == 1 and "STP001" in done.stdout, done.stdout + done.stderr
