"""Text as Python reads its identifiers: NFKC-normalized (PEP 3131), without normalizing what cannot change.

The normalizer's quick check costs about 60 instructions a character, and a source file that is not ASCII
is nearly always ASCII code with a few characters in strings and comments (quotes, dashes, emoji) that NFKC
leaves alone. A character is *inert* when NFKC keeps it as it is and it can neither be reordered nor composed
with a neighbour: NFKC_Quick_Check Yes and canonical combining class 0. A text whose characters are all inert
(ASCII characters are) is in NFKC already: that is the Unicode quick check's own YES answer (UAX #15, section 9).
Python's ``unicodedata`` has no NFKC_Quick_Check property, so Maybe (a character that may compose with the one
before it) is left out conservatively: every mark (category M) and the conjoining Hangul vowels and trailing
consonants. ``tests/test_identifier_text.py`` checks that over every code point of the running Unicode version.
"""

from __future__ import annotations

import unicodedata
from typing import Iterator

from steplint.source.reading import declares_encoding

_ASCII = bytes(range(128))
_inert_by_character: dict[str, bool] = {}


def source_nfkc(data: bytes, text: str) -> str:
    """``unicodedata.normalize("NFKC", text)`` of ``text``, the decoded ``data``, found without the normalizer
    when every character is inert. In a file without an encoding declaration (UTF-8) the bytes above 127 are
    exactly the characters that are not ASCII: one pass over the bytes finds them."""
    if text.isascii():
        return text
    if declares_encoding(data):
        others = text.encode("utf-8", "surrogatepass").translate(None, _ASCII).decode("utf-8", "surrogatepass")
    else:
        others = data.translate(None, _ASCII).decode("utf-8", "replace")
    changing = [character for character in set(others) if not _inert(character)]
    if not changing:
        return text
    # Normalization can be split before an inert character (UAX #15, "stable code points"): only each run of
    # the others, with the character before it (which they may compose with), is normalized.
    at = sorted(index for character in changing for index in _positions(text, character))
    pieces: list[str] = []
    done = 0
    run = 0
    while run < len(at):
        end = run
        while end + 1 < len(at) and at[end + 1] == at[end] + 1:
            end += 1
        start = max(at[run] - 1, done)
        pieces.append(text[done:start])
        pieces.append(unicodedata.normalize("NFKC", text[start : at[end] + 1]))
        done = at[end] + 1
        run = end + 1
    pieces.append(text[done:])
    return "".join(pieces)


def _positions(text: str, character: str) -> Iterator[int]:
    index = text.find(character)
    while index >= 0:
        yield index
        index = text.find(character, index + 1)


def _inert(character: str) -> bool:
    found = _inert_by_character.get(character)
    if found is None:
        found = _inert_by_character[character] = is_inert(character)
    return found


def is_inert(character: str) -> bool:
    """Whether NFKC keeps ``character`` as it is wherever it stands (see the module's docstring)."""
    return (unicodedata.combining(character) == 0 and unicodedata.category(character)[0] != "M"
            and not "\u1160" <= character <= "\u11ff" and unicodedata.is_normalized("NFKC", character))
