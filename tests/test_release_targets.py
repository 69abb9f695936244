"""A requirement is the set of releases it admits; version-dependent rules run per epoch and their findings merge."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_samples import steplint
from test_target_version import _project

from steplint.config.project_version import release_target
from steplint.config.release_sets import admitted_by_pep440, admitted_by_poetry
from steplint.config.release_targets import ReleaseTargets, with_release_targets
from steplint.config.settings import ConfigError, load_settings
from steplint.core.diagnostics import ERROR, WARNING, Diagnostic
from steplint.core.framework_versions import EPOCHS, NEWEST, RELEASES, describe_releases, epoch_of
from steplint.run.epochs import admitted_epochs, merged

ROOT = Path(__file__).resolve().parent.parent
NESTED = ROOT / "fixtures" / "target_version_nested.py"


def _from(*releases: str) -> tuple:
    return tuple(r for r in RELEASES if describe_releases([r]) in releases)


def _span(first: str, last: str) -> tuple:
    wanted = [r for r in RELEASES if describe_releases([r]) in (first, last)]
    return tuple(r for r in RELEASES if wanted[0] <= r <= wanted[-1])


# --- specifiers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, admitted",
    [
        ("==1.19.0", ((1, 19, 0),)),
        ("==1.30.0", ((1, 30, 0),)),  # a pin newer than steplint knows stays itself
        (">=1.0.0", RELEASES),
        (">=1.19", _span("1.19", "1.26")),
        (">1.19", _span("1.20", "1.26")),
        ("~=1.13", _span("1.13", "1.26")),
        ("~=1.13.0", ((1, 13, 0),)),
        ("~=1.2.1", ((1, 2, 1), (1, 2, 2))),
        ("<1.20", _span("1.2", "1.19")),
        (">=1.18,<1.21,!=1.19.0", ((1, 18, 0), (1, 20, 0))),
        ("==1.12.*", ((1, 12, 0), (1, 12, 1))),
        ("<1.2", ()),
        ("@ git+https://example.com/af.git", RELEASES),  # not a specifier: every release
    ],
)
def test_a_pep440_specifier_is_the_releases_it_admits(spec, admitted):
    assert admitted_by_pep440(spec) == admitted


@pytest.mark.parametrize(
    "spec, admitted",
    [
        ("1.21.0", ((1, 21, 0),)),
        ("^1.2", RELEASES),
        ("~1.13", ((1, 13, 0),)),
        ("^1.19 || ~1.2", ((1, 2, 0), (1, 2, 1), (1, 2, 2), *_span("1.19", "1.26"))),
        (">=1.18 <1.20", ((1, 18, 0), (1, 19, 0))),
    ],
)
def test_a_poetry_constraint_is_the_releases_it_admits(spec, admitted):
    assert admitted_by_poetry(spec) == admitted


# --- declarations -----------------------------------------------------------------------------


def test_an_open_range_is_every_release_it_admits_and_a_lock_narrows_it(tmp_path):
    _project(tmp_path, {"requirements.txt": "agent-framework-core>=1.0.0\n"})
    assert release_target(tmp_path).releases == RELEASES
    _project(tmp_path, {"uv.lock": 'version = 1\n\n[[package]]\nname = "agent-framework-core"\nversion = "1.13.0"\n'})
    target = release_target(tmp_path)
    assert target.releases == ((1, 13, 0),) and "uv.lock" in target.source


def test_the_meta_package_counts_as_core(tmp_path):
    _project(tmp_path, {"pyproject.toml": '[project]\nname = "x"\ndependencies = ["agent-framework~=1.17"]\n'})
    assert release_target(tmp_path).releases == _span("1.17", "1.26")


def test_no_declaration_is_the_newest(tmp_path):
    _project(tmp_path, {"pyproject.toml": '[project]\nname = "x"\n'})
    assert release_target(tmp_path).releases == (NEWEST,)


def test_a_range_without_the_functional_api_is_a_configuration_error(tmp_path):
    _project(tmp_path, {"requirements.txt": "agent-framework-core<1.2\n"})
    with pytest.raises(ConfigError, match=r"admits no agent-framework-core release with the functional API"):
        load_settings(None, tmp_path)
    done = steplint("--no-cache", ".", cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_requirement_files_count_nearest_first_below_the_run(tmp_path):
    _project(tmp_path, {
        "requirements.txt": "agent-framework-core==1.23.0\n",
        "backend/requirements.txt": "agent-framework-core==1.19.0\n",
        "backend/app/flow.py": "", "tools/flow.py": "",
    })
    settings = with_release_targets(load_settings(None, tmp_path), [str(tmp_path / "backend/app/flow.py"),
                                                                     str(tmp_path / "tools/flow.py")])
    targets = ReleaseTargets(settings)
    assert targets.for_path(str(tmp_path / "backend/app/flow.py")).releases == ((1, 19, 0),)
    assert targets.for_path(str(tmp_path / "tools/flow.py")).releases == ((1, 23, 0),)
    assert targets.for_path(str(tmp_path / "tools/other.py")).releases == ((1, 23, 0),)


def test_a_nested_requirement_decides_for_its_files_when_linting_from_the_root(tmp_path):
    _project(tmp_path, {"requirements.txt": "agent-framework-core==1.23.0\n",
                        "backend/requirements.txt": "agent-framework-core==1.19.0\n"})
    (tmp_path / "backend" / "flow.py").write_text(NESTED.read_text())
    (tmp_path / "flow.py").write_text(NESTED.read_text())
    found = {(d["path"], d["code"]) for d in json.loads(steplint("--no-cache", "--format", "json", ".", cwd=tmp_path).stdout)}
    assert ("backend/flow.py", "STP041") in found and ("flow.py", "STP041") not in found
    verbose = steplint("--no-cache", "-v", ".", cwd=tmp_path).stderr
    assert "target agent-framework-core 1.19.0 for files below it (from backend/requirements.txt" in verbose
    shown = steplint("--show-settings", ".", cwd=tmp_path).stdout
    assert "target-version: 1.23.0 (from requirements.txt" in shown
    assert "target-version for files below it: 1.19.0 (from backend/requirements.txt" in shown
    record = json.loads(steplint("--show-settings", "--format", "json", ".", cwd=tmp_path).stdout)
    assert [(t["target_version"], t["source"].split(":")[0]) for t in record["target_versions_below"]] == [
        ("1.19.0", "from backend/requirements.txt")]
    alone = json.loads(steplint("--show-settings", "--format", "json", "flow.py", cwd=tmp_path).stdout)
    assert alone["target_versions_below"] == []
    both = json.loads(steplint("--show-settings", "--format", "json", "flow.py", "backend", cwd=tmp_path).stdout)
    assert [t["target_version"] for t in both["target_versions_below"]] == ["1.19.0"]  # every path given


def test_forced_target_version_beats_a_range_and_accepts_old_releases(tmp_path):
    _project(tmp_path, {"requirements.txt": "agent-framework-core>=1.0.0\n"})
    (tmp_path / "flow.py").write_text(NESTED.read_text())
    done = steplint("--no-cache", "--format", "json", "--target-version", "1.2.0", "flow.py", cwd=tmp_path)
    messages = [d["message"] for d in json.loads(done.stdout)]
    assert messages and not any(m.startswith("on ") for m in messages)
    settings = json.loads(steplint("--show-settings", "--output-format", "json", "flow.py", cwd=tmp_path).stdout)
    assert settings["target_version"] == "1.2-1.26" and len(settings["target_releases"]) == len(RELEASES)


def test_a_lower_bound_of_1_19_keeps_stp041_and_names_the_release(tmp_path):
    _project(tmp_path, {"pyproject.toml": '[project]\nname = "x"\ndependencies = ["agent-framework-core>=1.19"]\n'})
    (tmp_path / "flow.py").write_text(NESTED.read_text())
    found = json.loads(steplint("--no-cache", "--format", "json", "flow.py", cwd=tmp_path).stdout)
    stp041 = [d for d in found if d["code"] == "STP041"]
    assert len(stp041) == 1 and stp041[0]["message"].startswith("on 1.19: ")
    stp010 = [d for d in found if d["code"] == "STP010"]
    assert stp010 and stp010[0]["message"].startswith("on 1.20-1.26: ")


# --- epochs and merging ----------------------------------------------------------------------


def test_epochs_cover_every_release_once():
    assert tuple(r for epoch in EPOCHS for r in epoch.releases) == RELEASES
    assert [describe_releases(e.releases) for e in EPOCHS] == ["1.2-1.13", "1.14", "1.15-1.18", "1.19", "1.20-1.22", "1.23-1.26"]
    assert epoch_of((1, 19, 3)).first == (1, 19, 0) and epoch_of((1, 40, 0)) == EPOCHS[-1]
    assert admitted_epochs([(1, 23, 0), (1, 2, 0), (1, 19, 0), (1, 20, 0)]) == [((1, 2, 0),), ((1, 19, 0),), ((1, 20, 0),), ((1, 23, 0),)]


def _finding(message: str, severity: str = ERROR, line: int = 3) -> Diagnostic:
    return Diagnostic("a.py", line, 1, line, 5, "STP999", "x", severity, message)


OLD, MID, NEW = _span("1.2", "1.14"), ((1, 19, 0),), _span("1.20", "1.26")


def test_one_story_everywhere_is_the_finding_unchanged():
    found = merged([(OLD, [_finding("bad")]), (NEW, [_finding("bad")])])
    assert [d.message for d in found] == ["bad"]


def test_a_finding_on_some_releases_names_them():
    found = merged([(OLD, []), (MID, [_finding("bad")]), (NEW, [_finding("bad")])])
    assert [d.message for d in found] == ["on 1.19-1.26: bad"]


def test_a_story_that_only_names_its_release_is_one_story():
    found = merged([(OLD, [_finding("1.14.0 lacks it")]), (MID, [_finding("1.19.0 lacks it")]), (NEW, [])])
    assert [d.message for d in found] == ["on 1.2-1.14, 1.19: 1.19.0 lacks it"]


def test_a_boundary_the_message_names_is_not_the_epochs_own_release():
    # The 1.14 epoch's "1.14" in "since 1.14" is the boundary every epoch names, not its own release.
    told = "no run() on {} (since 1.14 it is a definition)"
    epochs = [(_span("1.2", "1.13"), []), (((1, 14, 0),), [_finding(told.format("1.14.0"))]), (_span("1.15", "1.19"), [_finding(told.format("1.19.0"))]),
              (NEW, [_finding(told.format("1.26.0"))])]
    assert [d.message for d in merged(epochs)] == ["on 1.14-1.26: " + told.format("1.26.0")]


def test_different_stories_keep_the_newest_and_the_most_severe_severity():
    found = merged([(MID, [_finding("old story", ERROR)]), (NEW, [_finding("new story", WARNING)])])
    assert len(found) == 1 and found[0].severity == ERROR
    assert found[0].message.startswith("on 1.20-1.26: new story (it bites on 1.19 too")


def test_places_merge_separately():
    found = merged([(MID, [_finding("a", line=3)]), (NEW, [_finding("a", line=3), _finding("b", line=9)])])
    assert sorted(d.message for d in found) == ["a", "on 1.20-1.26: b"]


def test_services_that_read_the_release_read_each_epochs_own(tmp_path):
    """One analysis serves every epoch; a judge built in one epoch must not keep that epoch's release."""
    _project(tmp_path, {"requirements.txt": "agent-framework-core>=1.0.0\n"})
    (tmp_path / "flow.py").write_text(
        "from collections import Counter\nfrom agent_framework import FileCheckpointStorage, step, workflow\n\n\n"
        "class Bag(dict):\n    pass\n\n\n@step\nasync def bagged(n: int) -> Bag:\n    return Bag(a=n)\n\n\n"
        "@step\nasync def counted(n: int) -> Counter[str]:\n    return Counter('ab')\n\n\n"
        "@workflow\nasync def flow(n: int) -> int:\n    return len(await bagged(n)) + len(await counted(n))\n\n\n"
        "INSTANCE = flow.build(checkpoint_storage=FileCheckpointStorage('checkpoints'))\n"
    )
    found = json.loads(steplint("--no-cache", "--format", "json", "flow.py", cwd=tmp_path).stdout)
    told = sorted((d["location"]["row"], d["code"], d["message"].split(":")[0]) for d in found)
    assert told == [(10, "STP050", "on 1.20-1.26"), (10, "STP052", "on 1.2-1.19"), (15, "STP052", "on 1.2-1.19")]
