"""The GitHub Action (action.yml): its steps run as a runner runs them (bash -eo pipefail, inputs through env,
a fresh venv in RUNNER_TEMP) on a project with a nested step and on a clean one."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from cli_samples import nested

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
EXPRESSION = re.compile(r"\$\{\{\s*([\w.]+)\s*\}\}")


def _expand(value: str, inputs: dict[str, str]) -> str:
    def one(match: re.Match) -> str:
        name = match.group(1)
        if name == "github.action_path":
            return str(ROOT)
        if name.startswith("inputs."):
            key = name.removeprefix("inputs.")
            return inputs.get(key, str(ACTION["inputs"][key].get("default", "")))
        raise AssertionError(f"action.yml uses an expression the test does not know: {name}")

    return EXPRESSION.sub(one, value)


def run_action(workspace: Path, runner_temp: Path, inputs: dict[str, str], steps: slice = slice(None)) -> list[subprocess.CompletedProcess]:
    done = []
    for step in ACTION["runs"]["steps"][steps]:
        assert step["shell"] == "bash"
        env = {**{k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))},
               "RUNNER_TEMP": str(runner_temp), "GITHUB_WORKSPACE": str(workspace)}
        env.update({key: _expand(str(value), inputs) for key, value in step.get("env", {}).items()})
        result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=workspace,
                                env=env, capture_output=True, text=True, timeout=900)
        done.append(result)
        if result.returncode != 0:
            break
    return done


def test_the_action_is_composite_and_never_splices_inputs_into_scripts():
    assert ACTION["runs"]["using"] == "composite"
    for step in ACTION["runs"]["steps"]:
        assert "${{" not in step["run"], f"step {step['name']!r} splices an expression into its script"
    assert set(ACTION["inputs"]) == {"paths", "args", "version", "python"}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    runner_temp = tmp_path_factory.mktemp("runner-temp")
    [install] = run_action(runner_temp, runner_temp, {}, slice(0, 1))
    assert install.returncode == 0, install.stdout + install.stderr
    return runner_temp


def test_the_action_annotates_a_nested_step_and_fails(installed, tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "flow.py").write_text(nested())
    (tmp_path / "other.py").write_text(nested())
    [lint] = run_action(tmp_path, installed, {"paths": "src", "args": "--select STP001"}, slice(1, 2))
    assert lint.returncode == 1, lint.stderr
    lines = lint.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("::warning title=steplint STP001 (step-calls-step),file=src/flow.py,line=9,col=18")


def test_the_action_passes_on_clean_code(installed, tmp_path):
    (tmp_path / "clean.py").write_text("x = 1\n")
    [lint] = run_action(tmp_path, installed, {}, slice(1, 2))
    assert lint.returncode == 0 and lint.stdout == "", lint.stdout + lint.stderr


def test_the_readme_step_names_a_real_commit_and_its_inputs_work(installed, tmp_path):
    from integrations import snippet

    (step,) = yaml.safe_load(snippet("GitHub Action", "yaml"))
    repository, _, revision = step["uses"].partition("@")
    assert repository == "steplint/steplint"
    if (ROOT / ".git").exists():
        known = subprocess.run(["git", "cat-file", "-e", f"{revision}^{{commit}}"], cwd=ROOT, capture_output=True)
        assert known.returncode == 0, f"the README's action revision {revision} is not a commit of this repository"
    for folder in step["with"]["paths"].split():
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "flow.py").write_text(nested())
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "flow.py").write_text(nested())
    [lint] = run_action(tmp_path, installed, step["with"], slice(1, 2))
    assert lint.returncode == 1, lint.stderr
    files = sorted(line.split("file=")[1].split(",")[0] for line in lint.stdout.splitlines())
    assert files == sorted(f"{folder}/flow.py" for folder in step["with"]["paths"].split())
