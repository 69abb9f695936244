"""Target version: --target-version, [tool.steplint] target-version, else the project's declared agent-framework-core."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_samples import nested, steplint

from steplint.config.settings import ConfigError, load_settings
from steplint.config.project_version import detect

ROOT = Path(__file__).resolve().parent.parent
NESTED = ROOT / "fixtures" / "target_version_nested.py"



def _findings(*args: str, cwd: Path = ROOT) -> list[tuple[int, str, str]]:
    result = steplint("--format", "json", *args, cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    return [(d["line"], d["code"], d["severity"]) for d in json.loads(result.stdout)]


# --- the same file under two versions ----------------------------------------------------


def test_the_same_nested_step_file_under_1_19_and_1_23():
    old = _findings("--target-version", "1.19", str(NESTED))
    new = _findings("--target-version", "1.23", str(NESTED))
    # str arguments: an error where every key is call-order, a warning where they are fingerprinted.
    assert (30, "STP001", "error") in old and (30, "STP001", "warning") in new
    # A pydantic argument falls back to call order on both: an error on both.
    assert (31, "STP001", "error") in old and (31, "STP001", "error") in new
    # STP010 needs fingerprints to exist; replay_key= needs 1.20.
    assert (24, "STP010", "error") in new and not [f for f in old if f[1] == "STP010"]
    assert (35, "STP041", "error") in old and not [f for f in new if f[1] == "STP041"]


def test_a_declared_version_decides_when_nothing_else_does(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "flow.py").write_text(NESTED.read_text())
    (tmp_path / "requirements.txt").write_text("agent-framework-core==1.19.0\n")
    assert (30, "STP001", "error") in _findings("flow.py", cwd=tmp_path)
    (tmp_path / "requirements.txt").write_text("agent-framework-core>=1.21\n")
    assert (30, "STP001", "warning") in _findings("flow.py", cwd=tmp_path)
    # the command line beats the declaration, and --isolated reads no project file
    assert (30, "STP001", "error") in _findings("--target-version", "1.19", "flow.py", cwd=tmp_path)
    (tmp_path / "requirements.txt").write_text("agent-framework-core==1.19.0\n")
    assert (30, "STP001", "warning") in _findings("--isolated", "flow.py", cwd=tmp_path)


def test_configuration_beats_the_declaration_and_the_command_line_beats_both(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "flow.py").write_text(NESTED.read_text())
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "app"\ndependencies = ["agent-framework-core>=1.21"]\n\n[tool.steplint]\ntarget-version = "1.19"\n'
    )
    assert (30, "STP001", "error") in _findings("flow.py", cwd=tmp_path)
    assert (30, "STP001", "warning") in _findings("--target-version", "1.22", "flow.py", cwd=tmp_path)


def test_verbose_says_which_version_and_where_it_came_from(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "flow.py").write_text(NESTED.read_text())
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "app"\ndependencies = ["agent-framework-core>=1.20,<2"]\n')
    result = steplint("-v", "flow.py", cwd=tmp_path)
    assert "target agent-framework-core 1.20-1.26 (from pyproject.toml [project].dependencies: agent-framework-core>=1.20,<2)" in result.stderr
    result = steplint("-v", "--target-version", "1.19", "flow.py", cwd=tmp_path)
    assert "target agent-framework-core 1.19.0 (from --target-version)" in result.stderr
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "app"\n')
    result = steplint("-v", "flow.py", cwd=tmp_path)
    assert "target agent-framework-core 1.26.0 (the newest: no project file declares agent-framework-core)" in result.stderr


def test_target_version_in_config_must_be_a_quoted_version(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.steplint]\ntarget-version = 1.20\n")
    with pytest.raises(ConfigError, match=r"quoted version such as \"1.21\", not 1.2"):
        load_settings(None, tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.steplint]\ntarget-version = "one"\n')
    result = steplint(".", cwd=tmp_path)
    assert result.returncode == 2 and "'target-version': not a version" in result.stderr


# --- detection, case by case ----------------------------------------------------------------


def _project(root: Path, files: dict[str, str]) -> Path:
    (root / ".git").mkdir(exist_ok=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


PYPROJECT = '[project]\nname = "app"\n'
CASES = [
    # (files, expected version, expected origin)
    ({"pyproject.toml": PYPROJECT + 'dependencies = ["agent-framework-core==1.19.0"]\n'}, (1, 19, 0), "[project].dependencies"),
    ({"pyproject.toml": PYPROJECT + 'dependencies = ["agent-framework-core>=1.20,<2"]\n'}, (1, 20, 0), "[project].dependencies"),
    ({"pyproject.toml": PYPROJECT + 'dependencies = ["agent-framework-core~=1.21.1"]\n'}, (1, 21, 1), "[project].dependencies"),
    ({"pyproject.toml": PYPROJECT + 'dependencies = ["agent_framework_core[azure] >= 1.22 ; python_version >= \'3.10\'"]\n'}, (1, 22, 0), "[project].dependencies"),
    ({"pyproject.toml": PYPROJECT + 'dependencies = ["agent-framework-core"]\n'}, None, "[project].dependencies"),
    ({"pyproject.toml": PYPROJECT + 'dependencies = ["agent-framework-core<1.22"]\n'}, None, "[project].dependencies"),
    ({"pyproject.toml": PYPROJECT + 'dependencies = ["agent-framework-core @ https://example.org/a.whl"]\n'}, None, "[project].dependencies"),
    ({"pyproject.toml": PYPROJECT + 'dependencies = ["agent-framework>=1.21"]\n'}, (1, 21, 0), "[project].dependencies"),
    # core beats the meta-package wherever each is listed
    ({"pyproject.toml": PYPROJECT + 'dependencies = ["agent-framework>=1.22", "agent-framework-core==1.20.0"]\n'}, (1, 20, 0), "agent-framework-core"),
    ({"pyproject.toml": PYPROJECT + '[project.optional-dependencies]\nmaf = ["agent-framework-core>=1.19"]\n'}, (1, 19, 0), "[project.optional-dependencies].maf"),
    ({"pyproject.toml": PYPROJECT + '[dependency-groups]\ndev = ["agent-framework-core==1.21.0"]\n'}, (1, 21, 0), "[dependency-groups].dev"),
    ({"pyproject.toml": '[tool.poetry.dependencies]\npython = "^3.10"\nagent-framework-core = "^1.21"\n'}, (1, 21, 0), "[tool.poetry.dependencies]"),
    ({"pyproject.toml": '[tool.poetry.dependencies]\nagent-framework-core = { version = "~1.20.2", extras = ["x"] }\n'}, (1, 20, 2), "[tool.poetry.dependencies]"),
    ({"pyproject.toml": '[tool.poetry.dependencies]\nagent-framework-core = "1.19.0"\n'}, (1, 19, 0), "[tool.poetry.dependencies]"),
    ({"pyproject.toml": '[tool.poetry.dependencies]\nagent-framework-core = "*"\n'}, None, "[tool.poetry.dependencies]"),
    ({"pyproject.toml": '[tool.poetry.group.dev.dependencies]\nagent-framework-core = ">=1.20 <2"\n'}, (1, 20, 0), "[tool.poetry.group.dev.dependencies]"),
    # main dependencies before optional ones
    ({"pyproject.toml": PYPROJECT + 'dependencies = ["agent-framework-core>=1.22"]\n[project.optional-dependencies]\nold = ["agent-framework-core==1.19.0"]\n'}, (1, 22, 0), "[project].dependencies"),
    ({"requirements.txt": "# pinned\nagent-framework-core==1.21.0 \\\n    --hash=sha256:abc\n"}, (1, 21, 0), "requirements.txt"),
    ({"requirements-dev.txt": "-r requirements.txt\nagent-framework-core>=1.20  # for the tests\n"}, (1, 20, 0), "requirements-dev.txt"),
    ({"requirements.txt": "agent-framework-core>=1.22\n", "requirements-old.txt": "agent-framework-core==1.19.0\n"}, (1, 22, 0), "requirements.txt"),
    # a requirements/ folder (pip-tools' layout): its files by name, after the folder's own requirements*.txt
    ({"requirements/base.txt": "httpx\n", "requirements/maf.txt": "-r base.txt\nagent-framework>=1.16.0\n"}, (1, 16, 0), "maf.txt"),
    ({"requirements.txt": "agent-framework-core==1.19.0\n", "requirements/maf.txt": "agent-framework-core>=1.22\n"}, (1, 19, 0), "requirements.txt"),
    # a lock pins the resolved version, and beats the range it resolved
    ({"pyproject.toml": PYPROJECT + 'dependencies = ["agent-framework-core>=1.19"]\n', "uv.lock": 'version = 1\n\n[[package]]\nname = "agent-framework-core"\nversion = "1.22.0"\n'}, (1, 22, 0), "uv.lock"),
    ({"poetry.lock": '[[package]]\nname = "agent-framework-core"\nversion = "1.20.1"\n', "pyproject.toml": '[tool.poetry.dependencies]\nagent-framework-core = "^1.19"\n'}, (1, 20, 1), "poetry.lock"),
    # pyproject beats requirements in the same folder
    ({"pyproject.toml": PYPROJECT + 'dependencies = ["agent-framework-core>=1.21"]\n', "requirements.txt": "agent-framework-core==1.19.0\n"}, (1, 21, 0), "[project].dependencies"),
]


@pytest.mark.parametrize("files, version, origin", CASES, ids=[str(i) for i in range(len(CASES))])
def test_detection_cases(tmp_path, files, version, origin):
    found = detect(_project(tmp_path, files))
    assert found is not None
    assert found.version == version
    assert origin in found.describe()


def test_nothing_declared_is_none(tmp_path):
    assert detect(_project(tmp_path, {"pyproject.toml": PYPROJECT + 'dependencies = ["httpx"]\n'})) is None


def test_the_nearest_declaring_folder_wins_and_the_walk_stops_at_the_repository_root(tmp_path):
    _project(tmp_path, {"requirements.txt": "agent-framework-core==1.19.0\n"})
    (tmp_path / "svc" / "src" / "app").mkdir(parents=True)
    (tmp_path / "svc" / "pyproject.toml").write_text(PYPROJECT + 'dependencies = ["agent-framework-core>=1.21"]\n')
    assert detect(tmp_path / "svc" / "src" / "app").version == (1, 21, 0)
    # a project file that does not mention the framework does not stop the walk
    (tmp_path / "other" / "pkg").mkdir(parents=True)
    (tmp_path / "other" / "pyproject.toml").write_text(PYPROJECT)
    assert detect(tmp_path / "other" / "pkg").version == (1, 19, 0)
    # nothing above a repository root counts
    (tmp_path / "vendored" / ".git").mkdir(parents=True)
    assert detect(tmp_path / "vendored") is None


def test_a_uv_workspace_member_takes_the_workspace_lock(tmp_path):
    _project(
        tmp_path,
        {
            "pyproject.toml": '[tool.uv.workspace]\nmembers = ["packages/*"]\n',
            "uv.lock": 'version = 1\n\n[[package]]\nname = "app"\nsource = { editable = "packages/app" }\n\n'
            '[[package]]\nname = "agent-framework-core"\nversion = "1.23.0"\n',
            "packages/app/pyproject.toml": '[project]\nname = "app"\ndependencies = ["agent-framework-core>=1.19"]\n',
            "packages/lib/pyproject.toml": '[project]\nname = "lib"\ndependencies = ["agent-framework-core>=1.19"]\n',
        },
    )
    found = detect(tmp_path / "packages" / "app")
    assert found.version == (1, 23, 0) and "workspace lock of app" in found.describe()
    # a lock that does not list the member is another project's
    assert detect(tmp_path / "packages" / "lib").version == (1, 19, 0)


def test_unreadable_project_files_are_passed_over(tmp_path):
    _project(tmp_path, {"uv.lock": "this is [not toml", "requirements.txt": "agent-framework-core==1.20.0\n"})
    assert detect(tmp_path).version == (1, 20, 0)


@pytest.mark.parametrize("given", ["0.5", "1.1", "9.9", "1.27"])
def test_an_unknown_target_version_is_a_usage_error_naming_the_range(tmp_path, given):
    (tmp_path / "flow.py").write_text(nested(), encoding="utf-8")
    done = steplint("--isolated", "--target-version", given, "flow.py", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert "it knows 1.2 to 1.26" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_newest_checks_as_the_newest_release_with_a_warning(tmp_path):
    (tmp_path / "flow.py").write_text(nested(), encoding="utf-8")
    done = steplint("--isolated", "--target-version", "newest", "flow.py", cwd=tmp_path)
    assert done.returncode == 1 and "STP001" in done.stdout
    assert "warning: checking as agent-framework-core 1.26.0" in done.stderr


def test_a_target_chosen_by_a_project_file_is_said_once_unless_quiet(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["agent-framework-core==1.19.0"]\n')
    (tmp_path / "flow.py").write_text(nested(), encoding="utf-8")
    done = steplint("--no-cache", "flow.py", cwd=tmp_path)
    assert done.stderr.count("target agent-framework-core 1.19.0, from pyproject.toml") == 1
    assert steplint("--no-cache", "--quiet", "flow.py", cwd=tmp_path).stderr == ""
