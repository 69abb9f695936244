"""A file's bytes, read once on a cold run: its prefilter scan and content hash, then its summary or syntax check.

The run keeps the bytes a scan read (``Scanned``) until the file is summarized
or its syntax checked, in this process or in a worker that is sent them, so a
summary is made from the very bytes whose content hash keys it in the cache.
A file whose scan came from the cache (its stat key unchanged) has no bytes
kept: it is read when it must be summarized.
"""

from __future__ import annotations

from dataclasses import dataclass

from steplint.config.settings import DEFAULT_MAX_FILE_SIZE
from steplint.core.summary import ModuleSummary
from steplint.run.bytecode import compiled_by_this_python
from steplint.run.cache import Cache, content_hash
from steplint.run.prefilter import Scan, scan
from steplint.run.summary_cache import store_summary
from steplint.source.python_parse import quiet_parse, surely_parses
from steplint.source.reading import UnreadableSource, decode_source, read_source
from steplint.summaries.file_summary import read_and_summarize, summarize_source
from steplint.summaries.stored import pickled_summary


@dataclass(frozen=True, slots=True)
class Scanned:
    """A file's bytes as its scan read them, and their content hash."""

    data: bytes
    digest: str


@dataclass(frozen=True, slots=True)
class FileRead:
    """A worker's answer for one file: its bytes, their prefilter scan, whether bytecode proves they parse."""

    scanned: Scanned
    scan: Scan
    compiled: bool


def read_and_scan(path: str, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> FileRead | None:
    """The file read once, hashed and scanned; None: it cannot be read (its summary will say why)."""
    try:
        data = read_source(path, max_size)
    except UnreadableSource:
        return None
    return FileRead(Scanned(data, content_hash(data)), scan(data), compiled_by_this_python(path))


def digest_and_summary(path: str, scanned: Scanned | None, max_size: int | None) -> tuple[str | None, ModuleSummary]:
    """The summary of the bytes scanned (else of the file read now) and their content hash (None: unreadable)."""
    if scanned is not None:
        return scanned.digest, summarize_source(scanned.data, path)
    data, summary = read_and_summarize(path, max_size)
    return (content_hash(data) if data is not None else None), summary


def summary_made(
    item: tuple[str, Scanned | None], max_size: int | None = DEFAULT_MAX_FILE_SIZE, cache: Cache | None = None
) -> tuple[str | None, bool, bytes]:
    """A worker's answer for ``(path, scanned)``: the content hash, whether it stored the summary, and the summary.

    The summary is pickled once, for both the pipe and the cache.
    """
    digest, summary = digest_and_summary(*item, max_size)
    blob = pickled_summary(summary)
    return digest, cache is not None and store_summary(cache, digest, summary, blob), blob


def scanned_parses(item: tuple[str, Scanned | None], max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> bool:
    """``parses`` for ``(path, scanned)``: the bytes scanned, else the file read now."""
    path, scanned = item
    return parses(path, max_size, scanned.data if scanned is not None else None)


def parses(path: str, max_size: int | None = DEFAULT_MAX_FILE_SIZE, data: bytes | None = None) -> bool:
    """The file (or its ``data``) decodes and ``ast`` parses it as it is: it cannot be a STP900.

    False means "maybe": the file is then summarized like any checked file, and
    ``summarize_path`` (newer syntax rewritten, every reason spelled out) decides.
    """
    try:
        text = decode_source(data if data is not None else read_source(path, max_size))
        text = text[1:] if text.startswith("\ufeff") else text
        if surely_parses(text, path):
            return True
        quiet_parse(text, path)  # what the symbol table refuses (``nonlocal`` at module level) may still parse
    except Exception:  # unreadable, undecodable, a syntax error, too deep...: let the summary say
        return False
    return True
