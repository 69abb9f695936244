"""A lint run over paths, fast: cache, prefilter, parallel summaries, one analysis.

files (discovery) -> a replayed run, when nothing it consulted changed
      -> scans (bytes read and hashed once, kept; a cached scan for a file whose stat key is unchanged)
      -> prefilter (which files can hold a finding)
      -> findings kept per module, for modules whose dependencies did not change
      -> summaries of the others, of the bytes scanned (the cache by content hash, else a process pool)
      -> one analysis of those (``steplint.run.checking``), here or in worker processes sent their bytes
      -> the syntax check of skipped files no summary vouched for (a broken one is checked then)
      -> suppression and STP100 over every module's findings

The findings do not depend on the cache, the number of jobs or the prefilter:
the skipped files stay loadable through the module loader with the same
precedence they would have had as reported files, and a finding that lands in
one of them (a step whose body is defined there) is still reported.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from functools import partial

from steplint.config.release_targets import with_release_targets
from steplint.config.settings import Settings
from steplint.core import gc_pause
from steplint.core.findings import ModuleFindings
from steplint.core.summary import ModuleSummary
from steplint.report.final_findings import final_findings
from steplint.rules.stp900_syntax_error import SyntaxErrorRule
from steplint.run.cache import Cache, FileEntry, RunRecord, StatKey, presence_key, stat_key
from steplint.run.checking import Checking, Resolution, rules_for
from steplint.run.checking_workers import SharedRun, check_scanned_share
from steplint.run.findings_store import ModuleStore, RunFiles, next_store
from steplint.run.prefilter import UNREADABLE_SCAN, Prefilter, Scan
from steplint.run.results import RunResult, RunStats
from steplint.run.run_files import files_to_lint
from steplint.run.source_reads import FileRead, Scanned, digest_and_summary, read_and_scan, scanned_parses, summary_made
from steplint.run.summary_cache import load_summary, store_summary
from steplint.source.import_search import search_roots_for
from steplint.source.module_identity import ModuleFile, module_file
from steplint.summaries.reader_digest import reader_digest
from steplint.summaries.stored import pickled_summary, unpickled_summary
from steplint.run.process_pool import WorkerPool, workers_for


@dataclass
class _Checked:
    """The findings of the modules checked in this run, and what their resolution consulted."""

    findings: dict[str, ModuleFindings]
    resolution: Resolution
    summaries: dict[str, ModuleSummary]  # those built in this process (none when workers checked)

    def merge(self, other: "_Checked") -> None:
        self.findings.update(other.findings)
        self.resolution.merge(other.resolution)
        self.summaries.update(other.summaries)


@dataclass
class _Source:
    file: ModuleFile
    entry: FileEntry | None
    scan: Scan


@dataclass
class LintRun:
    settings: Settings
    use_noqa: bool = True
    jobs: int = 1
    cache: Cache | None = None
    prefilter: bool = True
    stats: RunStats = field(default_factory=RunStats)

    def __post_init__(self) -> None:
        self._loaded_entries: dict[str, FileEntry] | None = None
        self._dirty = False
        self._summaries: dict[str, ModuleSummary] = {}
        self._digests: dict[str, str | None] = {}  # absolute path -> content hash as read in this run
        # The bytes scans read, until the file is summarized: absolute path -> bytes and content hash.
        self._scanned: dict[str, Scanned] = {}
        # Summaries without an error, made or loaded here or in a worker: absolute path -> digest of their bytes.
        self._parsed: dict[str, str | None] = {}
        self._quiet: set[str] = set()  # changed module names no other module can see the change of

    @property
    def _entries(self) -> dict[str, FileEntry]:
        """The file cache, read on first use (a replayed run never needs it)."""
        if self._loaded_entries is None:
            self._loaded_entries = self.cache.load_files() if self.cache is not None else {}
        return self._loaded_entries

    def run(self, paths: list[str], force_exclude: bool = False) -> RunResult:
        # One pool for the run: reading, syntax checks and summaries share its start-up.
        with gc_pause.batch_thresholds(), WorkerPool(self.jobs) as self._pool:
            try:
                return self._run(paths, force_exclude)
            finally:
                self._scanned.clear()

    def _run(self, paths: list[str], force_exclude: bool) -> RunResult:
        files = files_to_lint(paths, self.settings, force_exclude)
        self.stats.discovered = len(files)
        self.settings = with_release_targets(self.settings, files)  # before the run's key, which they are part of
        self.stats.release_targets = tuple(dict.fromkeys(target for _, target in self.settings.releases_by_folder))
        named = {os.path.normpath(p) for p in paths if not os.path.isdir(p)}
        modules = [module_file(path) for path in files]
        run_key = self._run_key(paths, force_exclude)
        if self.cache is not None:
            record = self.cache.load_run(run_key)
            if record is not None and _unchanged(record, modules):
                self.stats.replayed = True
                self.cache.touch_run(run_key)
                return RunResult(list(record.diagnostics), record.file_count)

        sources = self._sources(modules)
        verdict = None
        if self.prefilter and not named.issuperset(sources):
            verdict = Prefilter(modules, {p: s.scan for p, s in sources.items()}, self._scan_path).decide()
            checked_paths = _with_namesakes(modules, verdict.candidates | (named & set(sources)))
        else:
            checked_paths = set(sources)
        run_files = [(m.path, m.module, m.is_package) for m in modules]
        previous = self._previous_store(run_key, run_files)
        changed = previous.changed_names(self._digest) if previous is not None else set()
        roots = list(dict.fromkeys(m.root for m in modules))
        self._search_roots = search_roots_for(self.settings, paths)
        self._quiet = self._quiet_changes(previous, changed, {os.path.abspath(m.path): m.path for m in modules})
        skipped = [m for m in modules if m.path not in checked_paths] if verdict is not None else []
        kept, checking = self._check([m for m in modules if m.path in checked_paths], modules, roots, previous, changed,
                                     skipped)
        if verdict is not None:
            # After the check, whose summaries vouch for the skipped files they imported: a skipped file that
            # may not parse is checked after all (a broken one reports STP900), with its namesakes.
            broken = _with_namesakes(modules, self._unparsed_skipped(modules, checked_paths))
            later = [m for m in modules if m.path in broken and m.path not in checked_paths]
            if later:
                kept_later, checking_later = self._check(later, modules, roots, previous, changed)
                kept.update(kept_later)
                checking.merge(checking_later)
                checked_paths.update(m.path for m in later)
        checked = [m for m in modules if m.path in checked_paths]
        self.stats.checked = len(checked)
        fresh = checking.findings
        self.stats.analyzed = len(fresh)
        findings = [kept[m.path] if m.path in kept else fresh[m.path] for m in checked]
        run_paths = {os.path.normpath(m.path) for m in modules}
        diagnostics = final_findings(findings, rules_for(self.settings), self.settings, self.use_noqa, reportable=run_paths.__contains__)
        result = RunResult(diagnostics, len(files), checking.summaries)
        if self.cache is not None:
            keep = {path: found for path, found in fresh.items() if _worth_keeping(found)}
            keep.update(kept)
            findings_by_path = {m.path: keep[m.path] for m in checked if m.path in keep}
            edges, loaded, consulted = checking.resolution.edges, checking.resolution.loaded, checking.resolution.consulted
            store = next_store(previous, run_files, changed, edges, loaded, consulted, findings_by_path, self._digest)
            self.cache.save_modules(run_key, store)
            self._save(run_key, modules, store, verdict, result)
            self.cache.prune_if_due()
        return result

    def _check(self, checked: list[ModuleFile], modules: list[ModuleFile], roots: list[str],
               previous: ModuleStore | None, changed: set[str],
               skipped: list[ModuleFile] = ()) -> tuple[dict[str, ModuleFindings], _Checked]:
        """The kept findings of ``checked`` modules that reach no change, and the others' findings, checked now.
        Where workers check them, this process checks the syntax of the ``skipped`` files meanwhile."""
        kept = _kept_findings(previous, changed, self._quiet, checked)
        to_check = [m.path for m in checked if m.path not in kept]
        if workers_for(len(to_check), self.jobs) > 1:
            return kept, self._check_in_workers(to_check, modules, roots, skipped)
        return kept, self._check_here(to_check, modules, roots)

    def _check_here(self, paths: list[str], modules: list[ModuleFile], roots: list[str]) -> _Checked:
        """Summaries and one analysis in this process (a few files: a pool costs more than it saves)."""
        summaries = self._summarize(paths)
        checked = set(paths)
        elsewhere: dict[str, list[str]] = {}
        for m in modules:
            if m.path not in checked:
                elsewhere.setdefault(m.module, []).append(m.path)
        checking = Checking(self.settings, summaries, roots=roots, discovered=elsewhere, search_roots=self._search_roots,
                            summarize=self._summary_for)
        findings = {s.path: checking.findings(s) for s in summaries}
        return _Checked(findings, checking.resolution(), {s.path: s for s in summaries})

    def _check_in_workers(self, paths: list[str], modules: list[ModuleFile], roots: list[str],
                          skipped: list[ModuleFile] = ()) -> _Checked:
        """Each worker summarizes and checks a share of ``paths``; this process checks the syntax of the ``skipped``
        files while they do (``_unparsed_skipped`` then has nothing left to parse), and gathers their findings."""
        run_files: dict[str, list[str]] = {}
        for m in modules:
            run_files.setdefault(m.module, []).append(m.path)
        run = SharedRun(os.urandom(16).hex(), self.settings, tuple(roots), run_files, self.cache, tuple(self._search_roots))
        checking = _Checked({}, Resolution({}, {}, set()), {})
        # Contiguous shares keep a package's modules (and what they import) in one worker.
        count = self.jobs * 4
        shares = [paths[i * len(paths) // count : (i + 1) * len(paths) // count] for i in range(count)]
        # Each share goes with the bytes its files' scans read: a worker reads only the files they import.
        scanned = [(s, {p: self._scanned.pop(os.path.abspath(p)) for p in s if os.path.abspath(p) in self._scanned})
                   for s in shares if s]
        shares = self._pool.map_shares(partial(check_scanned_share, run=run), scanned)  # the workers start now
        self._syntax_checked_here(skipped)
        for share in shares:
            self.stats.summarized += share.summarized
            for path, digest, stored, found in share.modules:
                checking.findings[path] = found
                self._note_stored_summary(path, digest, stored)
            checking.resolution.merge(share.resolution)
            self._parsed.update(share.parsed)
        # Each worker still holds its analysis (summaries, module states), which no later batch reads: a later batch
        # (the files a syntax check found broken) runs in fresh workers, forked from this smaller process.
        self._pool.close()
        return checking

    def _previous_store(self, key: str, run_files: RunFiles) -> ModuleStore | None:
        """The per-module findings of the last run like this one, when every name still means the same file."""
        if self.cache is None:
            return None
        store = self.cache.load_modules(key)
        return store if isinstance(store, ModuleStore) and store.usable(run_files) else None

    def _digest(self, path: str) -> str | None:
        """The content hash of the file at absolute ``path`` as it is now (None: unreadable)."""
        if path not in self._digests:
            source = self._source(module_file(path))  # a file outside the run, loaded through an import
            self._digests[path] = source.entry.digest if source.entry is not None else None
        return self._digests[path]

    # --- scans and summaries, through the cache ---------------------------------------

    def _sources(self, modules: list[ModuleFile]) -> dict[str, _Source]:
        """Every file's scan: from the cache when its stat key is unchanged, else read (in the pool)."""
        found: dict[str, _Source] = {}
        missing: list[tuple[ModuleFile, StatKey | None]] = []
        for file in modules:
            key = stat_key(file.path)
            cached = self._cached_source(file, key)
            if cached is not None:
                found[file.path] = cached
            else:
                missing.append((file, key))
        work = partial(read_and_scan, max_size=self.settings.max_file_size)
        for (file, key), read in zip(missing, self._pool.map(work, [f.path for f, _ in missing])):
            found[file.path] = self._record_read(file, key, read)
        for path, source in found.items():
            self._digests[os.path.abspath(path)] = source.entry.digest if source.entry is not None else None
        return found

    def _source(self, file: ModuleFile) -> _Source:
        key = stat_key(file.path)
        cached = self._cached_source(file, key)
        if cached is not None:
            return cached
        return self._record_read(file, key, read_and_scan(file.path, self.settings.max_file_size))

    def _cached_source(self, file: ModuleFile, key: StatKey | None) -> _Source | None:
        entry = self._entries.get(os.path.abspath(file.path))
        if entry is not None and key is not None and entry.stat == key and _same_module(entry, file):
            return _Source(file, entry, entry.scan)  # type: ignore[arg-type]
        return None

    def _record_read(self, file: ModuleFile, key: StatKey | None, read: FileRead | None) -> _Source:
        if read is None:
            return _Source(file, None, UNREADABLE_SCAN)  # summarize_path reports why, as STP900
        self.stats.read += 1
        digest, found, compiled = read.scanned.digest, read.scan, read.compiled
        absolute = os.path.abspath(file.path)
        self._scanned[absolute] = read.scanned
        entry = self._entries.get(absolute)
        if entry is not None and entry.digest == digest and _same_module(entry, file):
            entry.stat = key
        else:
            entry = self._entries[absolute] = FileEntry(key, digest, file.module, file.is_package, found)
        if compiled:
            entry.syntax_ok = True
        self._dirty = True
        return _Source(file, entry, entry.scan)  # type: ignore[arg-type]

    def _unparsed_skipped(self, modules: list[ModuleFile], checked: set[str]) -> set[str]:
        """Skipped files that may not parse: they are checked after all (a broken one reports STP900).

        A file the check summarized (an import of a checked module) without an
        error parsed. A ``__pycache__`` file that this interpreter wrote for the
        file's current stat proves it compiles (the import system trusts the same
        test). Every other skipped file is parsed, in the pool, and the answer is
        cached.
        """
        unknown = []
        for m in modules:
            if m.path in checked:
                continue
            absolute = os.path.abspath(m.path)
            entry = self._entries.get(absolute)
            if entry is not None and entry.syntax_ok is not None:
                continue  # its bytecode vouched for it, or an earlier run checked it
            if entry is not None and entry.digest is not None and self._parsed.get(absolute) == entry.digest:
                entry.syntax_ok = True  # the summary of these very bytes parsed
                self._dirty = True
            else:
                unknown.append(m.path)
        work = partial(scanned_parses, max_size=self.settings.max_file_size)
        self._note_parses(unknown, self._pool.map(work, [(p, self._scanned.get(os.path.abspath(p))) for p in unknown]))
        return {m.path for m in modules if m.path not in checked and not self._syntax_ok(m.path)}

    def _syntax_checked_here(self, skipped: list[ModuleFile]) -> None:
        """Whether each skipped file parses, in this process, as ``_unparsed_skipped`` would check it: this process
        is idle while the workers check (a file a worker's summary vouches for is parsed here too: a few dozen)."""
        unknown = [m.path for m in skipped
                   if (entry := self._entries.get(os.path.abspath(m.path))) is not None and entry.syntax_ok is None]
        work = partial(scanned_parses, max_size=self.settings.max_file_size)
        self._note_parses(unknown, [work((p, self._scanned.get(os.path.abspath(p)))) for p in unknown])

    def _note_parses(self, paths: list[str], parsed: list[bool]) -> None:
        """Keep whether each of ``paths`` parses, in its file entry (and the cache)."""
        self.stats.syntax_checked += len(paths)
        for path, ok in zip(paths, parsed):
            entry = self._entries.get(os.path.abspath(path))
            if entry is not None:
                entry.syntax_ok = ok
                self._dirty = True

    def _syntax_ok(self, path: str) -> bool:
        entry = self._entries.get(os.path.abspath(path))
        return entry is not None and bool(entry.syntax_ok)

    def _scan_path(self, path: str) -> Scan:
        """The prefilter's scan of a file it found on disk under a package root."""
        return self._source(module_file(path)).scan

    def _summarize(self, paths: list[str]) -> list[ModuleSummary]:
        missing = [p for p in paths if self._cached_summary(p) is None]
        if self._pool.runs_here(len(missing)):
            # No pipe to cross: the summaries are kept as made (a pickle round trip cost about a third of making
            # them), and pickled only for the cache.
            for path in missing:
                self._summarize_here(path)
            return [self._summaries[os.path.abspath(p)] for p in paths]
        work = partial(summary_made, max_size=self.settings.max_file_size, cache=self.cache)
        built = self._pool.map(work, [(p, self._scanned.pop(os.path.abspath(p), None)) for p in missing])
        self.stats.summarized += len(built)
        for (digest, stored, blob), path in zip(built, missing):
            summary = unpickled_summary(blob, path)
            assert summary is not None, path  # made by this run's own worker
            self._remember(summary, digest, stored)
        return [self._summaries[os.path.abspath(p)] for p in paths]

    def _quiet_changes(self, previous: ModuleStore | None, changed: set[str], spelled: dict[str, str]) -> set[str]:
        """The changed module names whose change no other module can see: each of their changed files' summary
        reads as before (``reader_digest``: a comment, a blank line). Their own findings are made again; the
        findings of the modules that read them are kept. A summary no longer in the cache: not quiet."""
        if previous is None or not changed or self.cache is None:
            return set()
        packages = {os.path.abspath(path): is_package for path, _, is_package in previous.files}
        quiet = set()
        for name, paths in previous.backing().items():
            if name in changed and all(self._reads_as_before(previous, name, spelled.get(path, path), packages)
                                       for path in paths):
                quiet.add(name)
        return quiet

    def _reads_as_before(self, previous: ModuleStore, name: str, path: str, packages: dict[str, bool]) -> bool:
        """``path`` as the run spells it (a summary keeps the path it was made for)."""
        absolute = os.path.abspath(path)
        before = previous.digests.get(absolute)
        if before is None:
            return False
        if self._digest(path) == before:
            return True
        is_package = packages.get(absolute, os.path.basename(path) == "__init__.py")
        old = load_summary(self.cache, before, name, is_package, path)
        if old is None or old.error is not None:
            return False
        new = self._summary_for(path)
        return new.error is None and new.module == old.module and reader_digest(new) == reader_digest(old)

    def _summary_for(self, path: str) -> ModuleSummary:
        """A module the loader needs: from memory, the cache, or summarized here."""
        found = self._cached_summary(path)
        if found is None:
            self._source(module_file(path))
            found = self._cached_summary(path)
        if found is None:
            found = self._summarize_here(path)
        return found

    def _summarize_here(self, path: str) -> ModuleSummary:
        scanned = self._scanned.pop(os.path.abspath(path), None)
        digest, summary = digest_and_summary(path, scanned, self.settings.max_file_size)
        stored = self.cache is not None and store_summary(self.cache, digest, summary, pickled_summary(summary))
        self.stats.summarized += 1
        self._remember(summary, digest, stored)
        return summary

    def _cached_summary(self, path: str) -> ModuleSummary | None:
        absolute = os.path.abspath(path)
        found = self._summaries.get(absolute)
        if found is not None:
            return found
        entry = self._entries.get(absolute)
        if entry is None or not entry.summarized or self.cache is None:
            return None
        key = stat_key(path)
        if key is None or entry.stat != key or not self._within_size_limit(key):
            return None
        summary = load_summary(self.cache, entry.digest, entry.module, entry.is_package, path)
        if summary is None:  # missing, or a blob that does not load: rebuilt, never trusted
            entry.summarized = False
            self._dirty = True
            return None
        self._summaries[absolute] = summary
        if summary.error is None:
            self._parsed[absolute] = entry.digest
        return summary

    def _within_size_limit(self, key: tuple[int, int, int]) -> bool:
        """A cached summary of a file now over ``max-file-size`` must not stand in for its STP900."""
        limit = getattr(self.settings, "max_file_size", None)
        return not limit or key[1] <= limit

    def _remember(self, summary: ModuleSummary, digest: str | None, stored: bool) -> None:
        self._summaries[os.path.abspath(summary.path)] = summary
        if summary.error is None:
            self._parsed[os.path.abspath(summary.path)] = digest
        self._note_stored_summary(summary.path, digest, stored)

    def _note_stored_summary(self, path: str, digest: str | None, stored: bool) -> None:
        """A summary stored in this run stands for the file when it summarized the very bytes scanned."""
        entry = self._entries.get(os.path.abspath(path))
        if stored and entry is not None and entry.digest == digest and entry.stat is not None:
            if entry.stat == stat_key(path):
                entry.summarized = True
                self._dirty = True

    # --- the run cache ----------------------------------------------------------------

    def _run_key(self, paths: list[str], force_exclude: bool) -> str:
        parts = (os.getcwd(), tuple(paths), force_exclude, self.use_noqa, self.prefilter, repr(self.settings))
        return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()

    def _save(self, key: str, modules: list[ModuleFile], store: ModuleStore, verdict, result: RunResult) -> None:
        assert self.cache is not None
        if self._dirty:
            self.cache.save_files(self._entries)
        consulted: dict[str, object] = {path: presence_key(path) for path in store.probes}
        consulted.update((path, presence_key(path)) for paths in store.outside.values() for path in paths)
        if verdict is not None:
            consulted.update((path, presence_key(path)) for path in verdict.read)
            consulted.update((path, presence_key(path)) for path in verdict.walked)
        files = [(m.path, stat_key(m.path), m.module, m.is_package) for m in modules]
        if all(key_ is not None for _, key_, _, _ in files) and all(v is not None for v in consulted.values()):
            record = RunRecord(files, consulted, result.diagnostics, result.files)  # type: ignore[arg-type]
            self.cache.save_run(key, record)


def _kept_findings(previous: ModuleStore | None, changed: set[str], quiet: set[str],
                   checked: list[ModuleFile]) -> dict[str, ModuleFindings]:
    """The kept findings of reported modules that reach no changed module (a ``quiet`` one is made again itself,
    and reaches no other), by path.

    Namesakes are analyzed together, so the first of them still takes precedence.
    """
    if previous is None:
        return {}
    kept = previous.kept(((m.path, m.module) for m in checked), previous.stale(changed - quiet) | quiet)
    fresh_names = {m.module for m in checked if m.path not in kept}
    return {m.path: kept[m.path] for m in checked if m.path in kept and m.module not in fresh_names}


def _worth_keeping(found: ModuleFindings) -> bool:
    """Findings of a broken file or a failed rule may come from this run's circumstances (memory, depth)."""
    return not found.file.broken and not any(d.code == SyntaxErrorRule.code for d in found.diagnostics)


def _same_module(entry: FileEntry, file: ModuleFile) -> bool:
    return entry.module == file.module and entry.is_package == file.is_package


def _unchanged(record: RunRecord, modules: list[ModuleFile]) -> bool:
    if len(record.files) != len(modules):
        return False
    for (path, key, module, is_package), current in zip(record.files, modules):
        if path != current.path or module != current.module or is_package != current.is_package:
            return False
        if key is None or stat_key(path) != key:
            return False
    return all(key is not None and presence_key(path) == key for path, key in record.consulted.items())


def _with_namesakes(modules: list[ModuleFile], checked: set[str]) -> set[str]:
    """Files that share a module name with a checked file are checked too, so precedence is unchanged."""
    names = {m.module for m in modules if m.path in checked}
    return checked | {m.path for m in modules if m.module in names}
