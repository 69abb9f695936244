"""The text each reported file was linted from, for rules that build fixes (an ``Analysis`` service)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from steplint.core.summary import ModuleSummary
from steplint.source.reading import DecodeFailure, decode_source, readable_text

if TYPE_CHECKING:
    from steplint.analysis.program import Analysis


class SourceTexts:
    """Text linted from memory (stdin, an editor buffer, a fix round) is seeded by the engine;
    anything else is read from disk once, when first needed."""

    def __init__(self, analysis: "Analysis | None" = None):
        self._data: dict[str, bytes] = {}
        self._texts: dict[str, str | None] = {}

    def seed(self, sources: Mapping[str, bytes]) -> None:
        self._data.update(sources)
        for path in sources:
            self._texts.pop(path, None)

    def text(self, path: str) -> str | None:
        if path not in self._texts:
            self._texts[path] = self._read(path)
        return self._texts[path]

    def _read(self, path: str) -> str | None:
        data = self._data.get(path)
        if data is None:
            return readable_text(path)
        try:
            return decode_source(data)
        except DecodeFailure:
            return None


def seed_sources(analysis: "Analysis", sources: Mapping[str, bytes] | None) -> None:
    """Give the fixes of ``analysis`` the bytes that were linted from memory (stdin, an editor buffer)."""
    if sources:
        analysis.service(SourceTexts).seed(sources)


def source_text(analysis: "Analysis", module: ModuleSummary) -> str | None:
    """The text ``module`` was summarized from, for building a fix."""
    return analysis.service(SourceTexts).text(module.path)
