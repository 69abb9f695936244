"""A file's summary from its path or bytes, never an exception: whatever fails becomes its STP900 reason."""

from __future__ import annotations

from steplint.config.settings import DEFAULT_MAX_FILE_SIZE
from steplint.core import gc_pause
from steplint.core.deep_stack import call_deep
from steplint.core.summary import ModuleSummary, ParseError
from steplint.source.module_identity import module_of
from steplint.source.reading import UnreadableSource, parse_bytes, read_source
from steplint.summaries.builder import summarize


def summarize_source(data: bytes, path: str, identity: tuple[str, bool] | None = None) -> ModuleSummary:
    """The summary of one file's bytes; never raises.

    Code nested deeper than the default recursion limit allows is summarized
    again on a deep stack (``steplint.core.deep_stack``), so a file CPython compiles is
    analyzed. Whatever still fails becomes the summary's error (STP900), with
    the reason: the other files' findings do not depend on it. ``identity``
    (module name, is a package) replaces the name the file's folders give it.
    """
    module, is_package = identity or module_of(path)
    try:
        try:
            with gc_pause.paused():
                return _summarize(data, path, module, is_package)
        except RecursionError:
            return call_deep(_summarize, data, path, module, is_package)
    except RecursionError:
        return broken_summary(path, module, is_package, "nesting too deep to analyze")
    except MemoryError:
        return broken_summary(path, module, is_package, "out of memory while analyzing this file")
    except Exception as exc:  # a bug in steplint must not hide the other files' findings
        reason = f"internal error while summarizing ({type(exc).__name__}: {exc}); please report it"
        return broken_summary(path, module, is_package, reason)


def _summarize(data: bytes, path: str, module: str, is_package: bool) -> ModuleSummary:
    return summarize(parse_bytes(data, path), path, module, is_package)


def summarize_path(path: str, max_size: int | None = DEFAULT_MAX_FILE_SIZE,
                   identity: tuple[str, bool] | None = None) -> ModuleSummary:
    """The summary of the file at ``path``; never raises, never blocks (FIFOs and devices are not read).

    A file that cannot be read, or holds more than ``max_size`` bytes (None or
    0: no limit), is a summary with the reason as its error (STP900).
    """
    return read_and_summarize(path, max_size, identity)[1]


def read_and_summarize(
    path: str, max_size: int | None = DEFAULT_MAX_FILE_SIZE, identity: tuple[str, bool] | None = None
) -> tuple[bytes | None, ModuleSummary]:
    """The bytes read (None: they could not be) and their summary, as ``summarize_path`` makes it."""
    try:
        data = read_source(path, max_size)
    except UnreadableSource as exc:
        return None, broken_summary(path, *(identity or module_of(path)), str(exc))
    except Exception as exc:  # e.g. a path the OS rejects outright
        return None, broken_summary(path, *(identity or module_of(path)), f"cannot read: {exc}")
    return data, summarize_source(data, path, identity)


def broken_summary(path: str, module: str, is_package: bool, reason: str) -> ModuleSummary:
    """The summary of a file the rules cannot run on: ``reason`` becomes its STP900 finding."""
    return ModuleSummary(path=path, module=module, is_package=is_package, error=ParseError(reason, 1, 0))
