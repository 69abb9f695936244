"""The releases each linted file is checked for: forced by configuration, else declared nearest to the file.

Requirement files count wherever they sit between the file and the project
root, nearest first (``steplint.config.project_version``): ``backend/requirements.txt``
decides for the files under ``backend/`` even when the run starts at the root.
"""

from __future__ import annotations

import os
from pathlib import Path

from steplint.config.project_version import ReleaseTarget, release_target
from steplint.config.settings import ConfigError, Settings
from steplint.core.framework_versions import NEWEST


class ReleaseTargets:
    """One run's answer per folder, detected once."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self._by_folder: dict[str, ReleaseTarget] = dict(settings.releases_by_folder)

    def for_path(self, path: str) -> ReleaseTarget:
        settings = self.settings
        if settings.target_version is not None:
            return ReleaseTarget((settings.target_version,), settings.target_version_source or "forced")
        if settings.release_target is None:  # --isolated, or settings made by a caller rather than read
            return ReleaseTarget((NEWEST,), settings.target_version_source or "the newest steplint knows")
        folder = os.path.dirname(os.path.abspath(path))
        found = self._by_folder.get(folder)
        if found is None:
            found = self._by_folder[folder] = release_target(Path(folder))
        return found


def with_release_targets(settings: Settings, files: list[str]) -> Settings:
    """``settings`` with the target of every folder holding one of ``files``, so that the run's key covers them.

    Raises ConfigError for a declaration that admits no release with the functional API.
    """
    if settings.target_version is not None or settings.release_target is None:
        return settings
    targets = ReleaseTargets(settings)
    folders = sorted({os.path.dirname(os.path.abspath(path)) for path in files})
    by_folder = tuple((folder, targets.for_path(os.path.join(folder, "_"))) for folder in folders)
    for _, target in by_folder:
        if target.problem:
            raise ConfigError(target.problem)
    return settings.with_overrides(releases_by_folder=by_folder)
