"""Which files a run lints, in which order: one listing per folder, real paths from the folder's."""

from __future__ import annotations

import os
from pathlib import Path

from steplint.config.settings import DEFAULT_EXCLUDES
from steplint.source.discovery import Excluder, discover


def _touch(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x = 1\n")


def _found(tmp_path: Path, *paths: Path, patterns: tuple[str, ...] = DEFAULT_EXCLUDES) -> list[str]:
    files = discover([str(p) for p in paths], Excluder(patterns, tmp_path))
    return [os.path.relpath(f, tmp_path) for f in files]


def test_a_folders_files_come_before_its_subfolders_each_by_name(tmp_path):
    for name in ("b.py", "a.pyi", "z/c.py", "m/d.py", "m/n/e.py", "notes.txt"):
        _touch(tmp_path / name)
    assert _found(tmp_path, tmp_path) == ["a.pyi", "b.py", "m/d.py", "m/n/e.py", "z/c.py"]


def test_a_file_reached_through_links_is_linted_once(tmp_path):
    _touch(tmp_path / "pkg" / "mod.py")
    (tmp_path / "alias.py").symlink_to(tmp_path / "pkg" / "mod.py")
    (tmp_path / "linked").symlink_to(tmp_path / "pkg", target_is_directory=True)
    # The link to the file is met first ("alias.py" sorts first) and stands for the file.
    assert _found(tmp_path, tmp_path) == ["alias.py"]
    assert _found(tmp_path, tmp_path / "pkg", tmp_path) == ["pkg/mod.py"]


def test_only_regular_files_count_and_a_folder_named_like_a_module_is_walked(tmp_path):
    _touch(tmp_path / "odd.py" / "inner.py")
    (tmp_path / "gone.py").symlink_to(tmp_path / "nowhere.py")
    os.mkfifo(tmp_path / "pipe.py")
    assert _found(tmp_path, tmp_path) == ["odd.py/inner.py"]


def test_excludes_match_names_below_the_walked_folder_and_paths_from_the_root(tmp_path):
    for name in ("src/keep.py", "src/build/gen.py", "src/x.egg-info/setup.py", "venv/lib/site.py", "docs/conf.py"):
        _touch(tmp_path / name)
    assert _found(tmp_path, tmp_path) == ["docs/conf.py", "src/keep.py"]
    # Walking an excluded folder on purpose lints it: only what is below it is matched.
    assert _found(tmp_path, tmp_path / "venv") == ["venv/lib/site.py"]
    # A pattern with a slash matches the path relative to the project root.
    assert _found(tmp_path, tmp_path, patterns=("docs/*", "*.egg-info")) == [
        "src/keep.py",
        "src/build/gen.py",
        "venv/lib/site.py",
    ]
