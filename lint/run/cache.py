"""The on-disk cache: file summaries by content, and whole-run results by what they read.

Layout (ruff-like): ``.steplint_cache/`` in the project root (``--cache-dir``
moves it, ``--no-cache`` turns it off) holds a ``.gitignore`` of ``*`` and
one folder per *code fingerprint*: steplint's version, a hash of its own
source files (so any change to the summarizer or the rules invalidates), the
Python version (its grammar shapes the tree) and libcst's (downlevel).

- ``files.pickle``: per absolute path, the file's stat key, content hash,
  module name, prefilter scan and whether its summary is stored. A file whose
  stat key (mtime_ns, size, inode) is unchanged is not read; one whose bytes
  hash the same is not parsed. A stat key taken within two seconds of the
  file's mtime is not trusted (the file could change again within the clock's
  resolution).
- ``summaries/<key[:2]>/<key>``: the pickled summary of the bytes with a
  content hash under a module name (``summary_key``: two empty
  ``__init__.py`` files are different modules), written by the worker that made it and read only when an
  analysis needs that module (so one changed file rewrites one summary, not
  a file holding all of them).
- ``runs/<key>.pickle``: the findings of a run with these arguments and
  settings, with the stat key of everything that run consulted (discovered
  files, modules loaded through imports, paths probed and not found, package
  folders listed). When all of it is unchanged, the findings are replayed.
- ``runs/<key>.modules.pickle``: the same runs' findings per reported module,
  with the module names each module's resolution asked for and the content
  hash of every file behind them (``steplint.run.findings_store``): when some files
  changed, only the modules that reach one of them are analyzed again.

Every file is written to a temporary name and moved into place with
``os.replace``, so concurrent runs never see half a file (the last writer
wins). A payload carries its own hash: a corrupt or truncated file is
ignored and rebuilt, never trusted.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pickle
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import steplint
from steplint._version import __version__

CACHE_DIR_NAME = ".steplint_cache"
_FORMAT = "v1"
_MAGIC = b"steplint-cache\n"
_RACY_SECONDS = 2.0

StatKey = tuple[int, int, int]


_MISSING: StatKey = (0, -1, 0)


def stat_key(path: str) -> StatKey | None:
    """(mtime_ns, size, inode), or None when the file is missing or too fresh to trust."""
    key = presence_key(path)
    return None if key == _MISSING else key


def presence_key(path: str) -> StatKey | None:
    """Like ``stat_key`` for paths whose absence matters too: a missing path is ``(0, -1, 0)``."""
    try:
        stat = os.stat(path)
    except OSError:
        return _MISSING
    if time.time_ns() - stat.st_mtime_ns < _RACY_SECONDS * 1e9:
        return None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def content_hash(data: bytes | memoryview) -> str:
    return hashlib.blake2b(data, digest_size=20).hexdigest()


def code_fingerprint() -> str:
    """steplint's version and own sources, the Python version and libcst's version."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{__version__}|{sys.implementation.cache_tag}|{sys.version}".encode())
    package = Path(steplint.__file__).resolve().parent
    rules = _rules_folder()
    # Every module of every stage, at any depth: an edit anywhere may change what a summary or finding is.
    for folder in (package, *([rules] if rules is not None and not rules.is_relative_to(package) else [])):
        for source in sorted(folder.rglob("*.py")):
            digest.update(source.relative_to(folder).as_posix().encode())
            digest.update(source.read_bytes())
    digest.update(_libcst_version().encode())
    return digest.hexdigest()


def _rules_folder() -> Path | None:
    try:
        spec = importlib.util.find_spec("steplint.rules")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]).resolve()


def _libcst_version() -> str:
    """libcst's installed version, from its dist-info folder name (importlib.metadata costs more)."""
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith("libcst-") and name.endswith(".dist-info"):
                return name[len("libcst-") : -len(".dist-info")]
    return "?"


@dataclass(slots=True)
class FileEntry:
    stat: StatKey | None
    digest: str
    module: str
    is_package: bool
    scan: object  # steplint.run.prefilter.Scan
    summarized: bool = False  # the summary of these bytes is stored under ``digest`` (``Cache.load_summary``)
    syntax_ok: bool | None = None  # parses, for a file the prefilter skips (None: not known)


@dataclass(slots=True)
class RunRecord:
    files: list[tuple[str, StatKey | None, str, bool]]  # discovered path, stat, module, is_package
    consulted: dict[str, StatKey | None]  # other paths whose content or absence shaped the result
    diagnostics: list = field(default_factory=list)
    file_count: int = 0


def summary_key(digest: str, module: str, is_package: bool) -> str:
    """Where the summary of these bytes as this module is stored (its path is set when it is loaded)."""
    return content_hash(f"{digest}|{module}|{is_package}".encode())


class Cache:
    def __init__(self, directory: str | os.PathLike[str]):
        self.root = Path(directory)
        self.folder = self.root / _FORMAT / code_fingerprint()
        self.files_path = self.folder / "files.pickle"

    # --- files ---------------------------------------------------------------------

    def load_files(self) -> dict[str, FileEntry]:
        loaded = self._read(self.files_path)
        return loaded if isinstance(loaded, dict) else {}

    def save_files(self, entries: dict[str, FileEntry]) -> None:
        self._write(self.files_path, entries)

    # --- summaries, by content hash and module name ----------------------------------

    def summary_path(self, key: str) -> Path:
        return self.folder / "summaries" / key[:2] / key

    def load_summary(self, key: str) -> bytes | None:
        """The pickled summary stored under ``summary_key(...)``, or None (never stored, or damaged)."""
        return self._read_bytes(self.summary_path(key))

    def save_summary(self, key: str, blob: bytes) -> bool:
        """Store a pickled summary; False when it could not be written (it only costs speed)."""
        return self._write_bytes(self.summary_path(key), blob)

    # --- runs --------------------------------------------------------------------------

    def run_path(self, key: str) -> Path:
        return self.folder / "runs" / f"{key}.pickle"

    def load_run(self, key: str) -> RunRecord | None:
        loaded = self._read(self.run_path(key))
        return loaded if isinstance(loaded, RunRecord) else None

    def save_run(self, key: str, record: RunRecord) -> None:
        self._write(self.run_path(key), record)

    def load_modules(self, key: str) -> object | None:
        """The per-module findings of runs with this key (a ``steplint.run.findings_store.ModuleStore``)."""
        return self._read(self.folder / "runs" / f"{key}.modules.pickle")

    def save_modules(self, key: str, store: object) -> None:
        self._write(self.folder / "runs" / f"{key}.modules.pickle", store)

    # --- atomic, self-checking files ---------------------------------------------------

    def _read(self, path: Path) -> object | None:
        payload = self._read_bytes(path)
        if payload is None:
            return None
        try:
            return pickle.loads(payload)
        except Exception:  # a payload from an incompatible build: rebuilt as well
            return None

    def _read_bytes(self, path: Path) -> bytes | None:
        try:
            data = path.read_bytes()
        except OSError:
            return None
        if not data.startswith(_MAGIC):
            return None
        view = memoryview(data)
        checksum, payload = bytes(view[len(_MAGIC) : len(_MAGIC) + 40]), view[len(_MAGIC) + 40 :]
        if content_hash(payload).encode() != checksum:
            return None  # corrupt or truncated: rebuilt by this run
        return bytes(payload)

    def _write(self, path: Path, value: object) -> None:
        try:
            payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, RecursionError):
            return
        self._write_bytes(path, payload)

    def _write_bytes(self, path: Path, payload: bytes) -> bool:
        """Write atomically; a cache that cannot be written only costs speed."""
        try:
            self._prepare(path.parent)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pickle")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(_MAGIC)
                    out.write(content_hash(payload).encode())
                    out.write(payload)
                os.replace(temporary, path)
            except BaseException:
                try:
                    os.unlink(temporary)
                except OSError:
                    pass
                raise
        except OSError:
            return False
        return True

    def _prepare(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        ignore = self.root / ".gitignore"
        if not ignore.exists():
            try:
                ignore.write_text("# Automatically created by steplint.\n*\n", encoding="utf-8")
            except OSError:
                pass
