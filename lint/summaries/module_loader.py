"""The summaries of the modules that reported files import, found as the import system would.

It lives with the summaries, not with the import search (``steplint.source.import_search``),
because it reads and summarizes the files it finds: ``source`` may not import ``summaries``.
"""

from __future__ import annotations

import os
from typing import Callable, Iterable

from steplint.core.summary import ModuleSummary
from steplint.source.import_search import ImportSearch, importable
from steplint.source.module_identity import package_root
from steplint.source.identifier_text import source_nfkc
from steplint.source.reading import declares_encoding, decode_source
from steplint.summaries.file_summary import summarize_path


_UNREAD = object()


class ModuleLoader:
    """Summaries by module name: the run's own files first, then the files the import search finds.

    ``discovered`` maps a module name to files of this run that are not among
    ``summaries`` (the prefilter skipped them): they answer first, in discovery
    order, exactly as they would have as reported files. ``consulted`` collects
    every other path whose content or absence shaped an answer (the run cache
    checks them); ``loaded`` maps each name asked for to the files read for it.
    Without ``roots``, the folders above the summaries' packages are the roots.
    """

    def __init__(
        self,
        summaries: list[ModuleSummary],
        roots: list[str] | None = None,
        discovered: dict[str, list[str]] | None = None,
        summarize: Callable[[str], ModuleSummary] = summarize_path,
        search_roots: list[str] | None = None,
    ):
        self.known: dict[str, ModuleSummary] = {os.path.abspath(s.path): s for s in summaries}
        #: The bytes of files linted from memory (stdin, an editor's buffer), by absolute path: what ``spelling``
        #: reads instead of the file on disk.
        self.texts: dict[str, bytes] = {}
        self.discovered = discovered or {}
        self.unchecked = {os.path.normpath(p) for paths in self.discovered.values() for p in paths}
        self.summarize = summarize
        self.loaded: dict[str, list[str]] = {}
        #: A file's NFKC text where its bytes cannot tell what it spells, else None (``_spells``).
        self._identifier_texts: dict[str, str | None] = {}
        self.search = ImportSearch(_roots_of(summaries) if roots is None else list(roots), list(search_roots or ()))

    @property
    def consulted(self) -> set[str]:
        return self.search.consulted

    def take_resolution(self) -> tuple[dict[str, list[str]], set[str]]:
        """What was loaded and consulted since the last call (a worker answers per share)."""
        loaded, consulted = self.loaded, self.search.consulted
        self.loaded, self.search.consulted = {}, set()
        return loaded, consulted

    def load(self, path: str) -> ModuleSummary:
        absolute = os.path.abspath(path)
        found = self.known.get(absolute)
        if found is None:
            found = self.known[absolute] = self.summarize(path)
        return found

    def peek(self, path: str) -> ModuleSummary:
        """The summary of the file at ``path``, not kept unless ``keep`` is called with it (``load`` keeps what it
        reads): for a caller that reads it only to tell whether it needs it."""
        return self.known.get(os.path.abspath(path)) or self.summarize(path)

    def keep(self, summary: ModuleSummary) -> None:
        """Keep a summary ``peek`` gave, as ``load`` would have."""
        self.known.setdefault(os.path.abspath(summary.path), summary)

    def may_name(self, path: str, identifier: str) -> bool:
        """Whether the file's text can spell the ASCII *identifier* (False only when it surely cannot), read
        without summarizing: a keyword argument, a ``def`` or an attribute must be spelled where it is used.
        Python reads identifiers NFKC-normalized, so a file with other characters is normalized first; one
        that cannot be read or decoded may."""
        absolute = os.path.abspath(path)
        if absolute in self.known:
            return True  # summarized already: nothing to save
        try:
            with open(path, "rb") as source:
                data = source.read()
            return self._spells(absolute, data, [identifier.encode()])
        except (OSError, ValueError):
            return True

    def spelling(self, paths: Iterable[str], identifiers: Iterable[str]) -> set[str]:
        """The ``paths`` whose text can spell one of the ASCII ``identifiers`` (as ``may_name`` reads a file, but
        for a summarized file too: its text is read again, or taken from ``texts`` where it came from a buffer)."""
        wanted = [identifier.encode() for identifier in identifiers]
        found: set[str] = set()
        for path in paths:
            absolute = os.path.abspath(path)
            data = self.texts.get(absolute)
            try:
                if data is None:
                    with open(path, "rb") as source:
                        data = source.read()
                if self._spells(absolute, data, wanted):
                    found.add(path)
            except (OSError, ValueError):
                found.add(path)  # cannot be read: it may
        return found

    def _spells(self, absolute: str, data: bytes, wanted: list[bytes]) -> bool:
        """Whether ``data`` (the file at ``absolute``) spells one of the ASCII identifiers ``wanted``, as Python reads
        identifiers (NFKC). Raises ValueError where the bytes do not decode."""
        if any(identifier in data for identifier in wanted):
            return True
        if data.isascii():
            return False
        text = self._identifier_texts.get(absolute, _UNREAD)
        if text is _UNREAD:
            # Asked again for other words (STP050 follows module names file by file): normalized once per run, and
            # kept only where the bytes cannot answer (NFKC changed a character, or an encoding is declared).
            decoded = decode_source(data)
            normalized = source_nfkc(data, decoded)
            changed = normalized is not decoded or declares_encoding(data)
            text = self._identifier_texts[absolute] = normalized if changed else None
        return text is not None and any(identifier.decode() in text for identifier in wanted)

    def _load_for(self, name: str, path: str) -> ModuleSummary:
        self.loaded.setdefault(name, []).append(path)
        return self.load(path)

    def __call__(self, name: str, near: str | None = None) -> ModuleSummary | None:
        if near is not None:
            return self._near(name, near)
        for path in self.discovered.get(name, ()):
            found = self._load_for(name, path)
            if found.error is None:
                return found
        if not importable(name):
            return None
        path = self.search.on_path(name)
        return self._load_for(name, path) if path is not None else None

    def _near(self, name: str, importer: str) -> ModuleSummary | None:
        if not importable(name):
            return None
        path = self.search.near(name, importer)
        return self._load_for(name, path) if path is not None else None


def _roots_of(summaries: list[ModuleSummary]) -> list[str]:
    roots: list[str] = []
    for summary in summaries:
        root = package_root(summary.path, summary.module, summary.is_package)
        if root is not None and root not in roots:
            roots.append(root)
    return roots
