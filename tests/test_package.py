"""The package a user installs: the sdist and wheel built from a clean copy of the repository carry the license,
the metadata and (the sdist) the whole test suite, and a slice of that suite passes from the unpacked sdist
against the wheel built from it."""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not (ROOT / ".git").exists(), reason="builds from the git checkout's tracked files")

# Files a test, a packager or a user needs from the sdist.
NEEDED = (
    "LICENSE", "README.md", "CHANGELOG.md", "CONTRIBUTING.md", "action.yml", ".pre-commit-hooks.yaml", ".ci/run",
    "tests/conftest.py", "tests/run.sh", "tests/expectations.py", "tests/cli_samples.py", "tests/runtime/conftest.py",
    "tests/runtime/test_rule_verdicts.py", "tests/mermaid_parse.mjs", "fixtures/repro_9383.py",
    "fixtures/stp001_fix.fixed.py", "docs/rules/STP001.md", "docs/rules.md", "bench/run.py",
)


def _run(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """sdist from a copy of the tracked files (no caches or local leftovers), wheel from the unpacked sdist."""
    work = tmp_path_factory.mktemp("package")
    clean = work / "checkout"
    tracked = _run("git", "ls-files", "-z", cwd=ROOT).stdout.split("\0")
    for name in filter(None, tracked):
        source = ROOT / name
        if source.is_file():
            (clean / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clean / name)
    _run(sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(work / "dist"), ".", cwd=clean)
    [sdist] = (work / "dist").glob("steplint-*.tar.gz")
    with tarfile.open(sdist) as archive:
        archive.extractall(work / "unpacked", filter="data")
    [unpacked] = (work / "unpacked").iterdir()
    _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir",
         str(work / "wheels"), str(unpacked), cwd=work)
    [wheel] = (work / "wheels").glob("steplint-*.whl")
    return {"sdist": sdist, "unpacked": unpacked, "wheel": wheel, "work": work}


def test_the_sdist_carries_everything_the_tests_need_and_nothing_local(built):
    with tarfile.open(built["sdist"]) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    missing = [name for name in NEEDED if name not in names]
    assert missing == []
    tracked_tests = _run("git", "ls-files", "tests", "fixtures", cwd=ROOT).stdout.split()
    assert [name for name in tracked_tests if name not in names] == []
    assert not [name for name in names if ".steplint_cache" in name or name.endswith(".pyc") or ".npm-mermaid" in name]


def test_the_metadata_has_an_spdx_license_urls_classifiers_and_authors(built):
    with tarfile.open(built["sdist"]) as archive:
        member = next(m for m in archive.getmembers() if m.name.count("/") == 1 and m.name.endswith("/PKG-INFO"))
        metadata = email.message_from_bytes(archive.extractfile(member).read())
    assert metadata["License-Expression"] == "MIT" and metadata["License-File"] == "LICENSE"
    assert metadata["Author"] == "The steplint authors"
    urls = dict(url.split(", ", 1) for url in metadata.get_all("Project-URL"))
    assert {"Homepage", "Repository", "Issues", "Changelog"} <= set(urls)
    assert all(url.startswith("https://github.com/steplint/steplint") for url in urls.values())
    classifiers = metadata.get_all("Classifier")
    assert "Development Status :: 4 - Beta" in classifiers
    assert {f"Programming Language :: Python :: 3.{minor}" for minor in (10, 11, 12, 13)} <= set(classifiers)
    # PEP 639: with an SPDX expression a "License ::" classifier is an error in setuptools, so there is none.
    assert not [c for c in classifiers if c.startswith("License ::")]


def test_the_wheel_carries_the_license_and_the_entry_points(built):
    with zipfile.ZipFile(built["wheel"]) as wheel:
        names = set(wheel.namelist())
        entry_points = wheel.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert "steplint = steplint.frontends.cli:main" in entry_points
    assert "STP = steplint.frontends.flake8_plugin:Plugin" in entry_points
    assert "steplint/rules/stp001_step_calls_step.py" in names and "steplint/runtime_shim/__init__.py" in names


def test_a_slice_of_the_suite_passes_from_the_unpacked_sdist(built):
    """The wheel (built from the sdist) goes first on the path, so the suite runs the packaged code."""
    target = built["work"] / "site"
    _run(sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(built["wheel"]),
         cwd=built["work"])
    env = {**os.environ, "PYTHONPATH": str(target)}
    env.pop("STEPLINT_TEST_ROOT", None)
    where = _run(sys.executable, "-c", "import steplint; print(steplint.__file__)", cwd=built["unpacked"], env=env)
    assert Path(where.stdout.strip()).is_relative_to(target)
    done = _run(
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
        "tests/test_fixtures.py", "tests/test_rule_docs.py", "tests/test_registry.py", "tests/test_cli.py",
        "tests/runtime/test_rule_verdicts.py",
        cwd=built["unpacked"], env=env,
    )
    assert " passed" in done.stdout and " failed" not in done.stdout
