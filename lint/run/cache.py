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

The cache prunes itself at the end of a run, at most once a day
(``PRUNE_EVERY``): run records and summaries unused for ``MAX_AGE`` go (a
replayed run record is touched, so it counts as used), then the oldest
summaries until the folder holds at most ``MAX_BYTES``; the folders of other
code fingerprints (older steplint versions) go when unused for ``MAX_AGE``,
and all but the ``KEEP_FINGERPRINTS`` newest of them at once; leftover
temporary files of killed runs go after an hour. Whatever is pruned is only
rebuilt: a run that loses a file to a concurrent prune reads it as missing.
``steplint clean`` removes the whole cache.
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
PRUNE_EVERY = 24 * 3600.0
MAX_AGE = 30 * 24 * 3600.0
MAX_BYTES = 512 * 1024 * 1024
KEEP_FINGERPRINTS = 2  # other than the current one: a second steplint (pre-commit's, the venv's) keeps its cache
_STALE_TEMPORARY = 3600.0

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

    def touch_run(self, key: str) -> None:
        """Mark a run record used (a replay): pruning keeps what was used lately."""
        try:
            os.utime(self.run_path(key))
        except OSError:
            pass

    def save_run(self, key: str, record: RunRecord) -> None:
        self._write(self.run_path(key), record)

    def load_modules(self, key: str) -> object | None:
        """The per-module findings of runs with this key (a ``steplint.run.findings_store.ModuleStore``)."""
        return self._read(self.folder / "runs" / f"{key}.modules.pickle")

    def save_modules(self, key: str, store: object) -> None:
        self._write(self.folder / "runs" / f"{key}.modules.pickle", store)

    # --- pruning ---------------------------------------------------------------------------

    def prune_if_due(self, now: float | None = None) -> bool:
        """Prune when the last prune is older than ``PRUNE_EVERY`` (a stamp file says when); True if it pruned."""
        now = time.time() if now is None else now
        stamp = self.root / _FORMAT / ".last-prune"
        try:
            if now - stamp.stat().st_mtime < PRUNE_EVERY:
                return False
        except OSError:
            pass
        try:
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.touch()
        except OSError:
            return False
        self.prune(now)
        return True

    def prune(self, now: float | None = None, max_age: float = MAX_AGE, max_bytes: int = MAX_BYTES) -> int:
        """Remove what has not been used for ``max_age`` seconds and the oldest summaries past ``max_bytes``;
        the number of files removed."""
        now = time.time() if now is None else now
        removed = self._prune_fingerprints(now, max_age)
        kept: list[tuple[float, int, Path]] = []
        for path in _files_under(self.folder):
            try:
                status = path.stat()
            except OSError:
                continue
            age = now - status.st_mtime
            if path.name.startswith(".tmp-"):
                removed += _unlink(path) if age > _STALE_TEMPORARY else 0
            elif path.parent.name == "runs" or path.parent.parent.name == "summaries":
                if age > max_age:
                    removed += _unlink(path)
                else:
                    kept.append((status.st_mtime, status.st_size, path))
        total = sum(size for _, size, _ in kept) + _size_of(self.files_path)
        for _, size, path in sorted(kept):  # oldest first
            if total <= max_bytes:
                break
            removed += _unlink(path)
            total -= size
        return removed

    def _prune_fingerprints(self, now: float, max_age: float) -> int:
        """The folders of other code fingerprints: unused for ``max_age``, or beyond the newest few."""
        try:
            others = [entry for entry in (self.root / _FORMAT).iterdir() if entry.is_dir() and entry != self.folder]
        except OSError:
            return 0
        used = sorted(((_last_used(folder), folder) for folder in others), reverse=True)
        removed = 0
        for rank, (last, folder) in enumerate(used):
            if rank >= KEEP_FINGERPRINTS or now - last > max_age:
                removed += remove_tree(folder)
        return removed

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


def _files_under(folder: Path) -> list[Path]:
    found: list[Path] = []
    for directory, _, names in os.walk(folder):
        found.extend(Path(directory) / name for name in names)
    return found


def _last_used(folder: Path) -> float:
    """When a fingerprint folder was last written to (its files.pickle, else the folder itself)."""
    for candidate in (folder / "files.pickle", folder):
        try:
            return candidate.stat().st_mtime
        except OSError:
            continue
    return 0.0


def _size_of(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _unlink(path: Path) -> int:
    try:
        path.unlink()
    except OSError:
        return 0
    return 1


def remove_tree(folder: Path) -> int:
    """Remove a folder and what it holds, tolerating a concurrent run that removes or writes there."""
    removed = 0
    for directory, folders, names in os.walk(folder, topdown=False):
        for name in names:
            removed += _unlink(Path(directory) / name)
        for name in folders:
            try:
                os.rmdir(os.path.join(directory, name))
            except OSError:
                pass
    try:
        os.rmdir(folder)
    except OSError:
        pass
    return removed


def is_cache_folder(folder: Path) -> bool:
    """Whether ``folder`` is a steplint cache (what ``steplint clean`` may remove): it holds steplint's .gitignore
    or its format folder."""
    try:
        marker = (folder / ".gitignore").read_text(encoding="utf-8", errors="replace")
    except OSError:
        marker = ""
    return "created by steplint" in marker or (folder / _FORMAT).is_dir()
