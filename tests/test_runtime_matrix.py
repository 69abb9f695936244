"""The runtime shim's version matrix: tests/runtime against every tested MAF release.

The development environment's own agent-framework-core runs tests/runtime
directly. Every other release in TESTED_VERSIONS gets its own virtual
environment under <repo>/.venvs/maf-<version>/ (created once, reused while its
completion stamp matches), and the same suite runs there in a subprocess.
Parametrized per release, so ``pytest -n 2`` builds and runs two at a time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from importlib import metadata
from pathlib import Path

import pytest
from package_layout import package_folders
from release_sites import REPO_ROOT, STAMP, VENVS, exclusive, release_site, tail

from steplint.runtime_shim import TESTED_VERSIONS

SUITE = "tests/runtime"
# Test dependencies of tests/runtime; the shim itself needs none.
REQUIREMENTS = ("pydantic>=2", "pytest>=8", "hypothesis>=6.100")

MAIN_VERSION = metadata.version("agent-framework-core")
# The dev environment's release runs tests/runtime directly (if it is a tested one).
OTHER_VERSIONS = [version for version in TESTED_VERSIONS if version != MAIN_VERSION]
# The releases that bound the shim's key epochs: the oldest supported (call-order keys), the first with argument
# fingerprints and the newest. They run every test; the releases inside an epoch run the suite without the `deep`
# tests (fuzzer, pytest plugin) and with a quarter of the hypothesis examples (tests/runtime/shim_support.py).
DEEP_RELEASES = ("1.18.0", "1.20.0", "1.26.0")
# Releases real projects pin that the shim refuses (it supports 1.18.0+): only the linter's verdicts are
# checked there. They share this session's environment (the releases' dependencies agree): each is its
# one wheel, installed with --no-deps into .venvs/ and put first on PYTHONPATH, so no venv is built.
VERDICT_ONLY_VERSIONS = ("1.2.0", "1.13.0", "1.17.0")
#: The verdict truths that install no shim (tests/runtime/conftest.py's VERDICT_TESTS): issue 29's rules' among them.
VERDICT_SUITES = tuple(f"tests/runtime/{name}" for name in (
    "test_rule_verdicts.py", "test_duplicate_step_name.py", "test_unstable_step_name.py",
    "test_step_mutates_argument.py", "test_unstable_replay_key.py", "test_io_before_request_info.py",
    "test_io_in_workflow_body.py", "test_workflow_run_misuse.py", "test_workflow_without_input.py",
))


def stamp_text(version: str) -> str:
    """What a complete environment for *version* was built from; a change rebuilds it."""
    python = f"python={sys.version_info[:2]}"
    # An editable install maps the packages it was made with: a new package needs a new install.
    packages = "packages=" + ",".join(package_folders())
    return "\n".join([f"agent-framework-core=={version}", *REQUIREMENTS, python, str(REPO_ROOT), packages])


def python_of(environment: Path) -> Path:
    return environment / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def pip(environment: Path, *arguments: str) -> None:
    completed = subprocess.run(
        [str(python_of(environment)), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *arguments],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=900,
        check=False,
    )
    if completed.returncode != 0:
        pytest.fail(f"pip install {' '.join(arguments)} failed in {environment}:\n{tail(completed)}")


def environment_for(version: str) -> Path:
    """The virtual environment for *version*, built unless a complete one is already there."""
    environment = VENVS / f"maf-{version}"
    stamp = environment / STAMP
    with exclusive(environment.name):
        if stamp.is_file() and stamp.read_text() == stamp_text(version) and python_of(environment).exists():
            return environment
        # No stamp: absent, or a build that was interrupted; start afresh.
        shutil.rmtree(environment, ignore_errors=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(environment)
        pip(environment, f"agent-framework-core=={version}", *REQUIREMENTS)
        with exclusive("editable-install"):  # it writes build metadata into the shared checkout
            pip(environment, "--no-deps", "-e", str(REPO_ROOT))
        stamp.write_text(stamp_text(version))
    return environment


def suite_environment() -> dict[str, str]:
    environment = dict(os.environ)
    # Options meant for this session (e.g. -n from xdist) would break the inner one.
    environment.pop("PYTEST_ADDOPTS", None)
    environment.pop("PYTHONPATH", None)
    environment.pop("STEPLINT_SAMPLE_RELEASE", None)
    return environment


def depth_for(version: str) -> tuple[list[str], dict[str, str]]:
    """The pytest options and environment that make *version* run the whole suite or its sample."""
    if version in DEEP_RELEASES:
        return [], {}
    return ["-m", "not deep"], {"STEPLINT_SAMPLE_RELEASE": "1"}


@pytest.mark.runtime
@pytest.mark.parametrize("version", OTHER_VERSIONS)
def test_runtime_suite_passes_on_release(version: str) -> None:
    environment = environment_for(version)
    options, variables = depth_for(version)
    completed = subprocess.run(
        [
            str(python_of(environment)),
            "-m",
            "pytest",
            SUITE,
            *options,
            "-q",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            # Only tests/runtime's own conftest: the linter's may need its dependencies.
            "--confcutdir",
            SUITE,
        ],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env={**suite_environment(), **variables},
        timeout=900,
        check=False,
    )
    assert completed.returncode == 0, f"tests/runtime on agent-framework-core {version}:\n{tail(completed)}"
    reported = metadata_version_in(environment)
    assert reported == version, f"{environment} has agent-framework-core {reported}"


def metadata_version_in(environment: Path) -> str:
    program = "from importlib import metadata; print(metadata.version('agent-framework-core'))"
    return subprocess.run(
        [str(python_of(environment)), "-c", program],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


@pytest.mark.runtime
@pytest.mark.parametrize("version", VERDICT_ONLY_VERSIONS)
def test_rule_verdicts_hold_on_older_release(version: str) -> None:
    environment = suite_environment()
    environment["PYTHONPATH"] = str(release_site(version))
    program = "from importlib import metadata; print(metadata.version('agent-framework-core'))"
    completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=environment,
                               check=True)
    assert completed.stdout.strip() == version, f"PYTHONPATH did not put {version} first: {completed.stdout}"
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", *VERDICT_SUITES, "-q", "-p", "no:cacheprovider", "-o", "addopts=",
         "--confcutdir", SUITE],
        capture_output=True, text=True, cwd=REPO_ROOT, env=environment, timeout=900, check=False,
    )
    assert completed.returncode == 0, f"{' '.join(VERDICT_SUITES)} on agent-framework-core {version}:\n{tail(completed)}"


def test_deep_releases_bound_the_tested_range() -> None:
    tested = sorted(TESTED_VERSIONS, key=lambda version: tuple(map(int, version.split("."))))
    assert set(DEEP_RELEASES) <= set(tested), DEEP_RELEASES
    assert tested[0] in DEEP_RELEASES and tested[-1] in DEEP_RELEASES, (tested, DEEP_RELEASES)
    assert "1.20.0" in tested  # the first release with argument fingerprints: the other bound
