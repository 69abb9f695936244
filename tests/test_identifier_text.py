"""``steplint.source.identifier_text``: NFKC of a source text, with the normalizer run only where it can change it."""

from __future__ import annotations

import random
import sys
import unicodedata

import pytest

from steplint.source.identifier_text import is_inert, source_nfkc


def _code_points():  # noqa: ANN202
    return (chr(point) for point in range(0x80, sys.maxunicode + 1) if not 0xD800 <= point <= 0xDFFF)


def test_no_inert_character_composes_with_the_one_before_it() -> None:
    # The second character of every canonical pair decomposition may compose with what precedes it (NFC_QC
    # Maybe); the conjoining Hangul vowels and trailing consonants compose algorithmically.
    composing = {chr(int(pair[1], 16)) for character in _code_points()
                 if len(pair := unicodedata.decomposition(character).split()) == 2 and not pair[0].startswith("<")}
    composing.update(map(chr, range(0x1161, 0x1176)), map(chr, range(0x11A8, 0x11C3)))
    assert not [hex(ord(character)) for character in composing if is_inert(character)]


def test_an_inert_character_is_its_own_normal_form() -> None:
    assert not [hex(ord(c)) for c in _code_points() if is_inert(c) and unicodedata.normalize("NFKC", c) != c]


@pytest.mark.parametrize("seed", range(4))
def test_source_nfkc_is_unicodedata_normalize(seed: int) -> None:
    rng = random.Random(seed)
    changing = [c for c in map(chr, range(0x80, 0x30000)) if not 0xD800 <= ord(c) <= 0xDFFF and not is_inert(c)]
    inert = [c for c in map(chr, range(0x80, 0x3000)) if is_inert(c)]
    hangul = [*map(chr, range(0x1100, 0x1113)), *map(chr, range(0x1161, 0x1176)), *map(chr, range(0x11A8, 0x11C3)),
              "\uac00", "\uac1c", "\ud7a3"]
    for _ in range(15000):
        pool = hangul if rng.random() < 0.2 else None
        text = "".join(
            rng.choice(pool) if pool and rng.random() < 0.7
            else rng.choice(changing) if (r := rng.random()) < 0.35 else rng.choice(inert) if r < 0.55 else chr(rng.randrange(128))
            for _ in range(rng.randrange(1, 20)))
        assert source_nfkc(text.encode("utf-8"), text) == unicodedata.normalize("NFKC", text), repr(text)


def test_a_declared_encoding_is_read_from_the_text() -> None:
    # latin-1 bytes of 'ﬁ'-free text: the bytes above 127 are not UTF-8, the text decides
    text = "# -*- coding: latin-1 -*-\nname = 'caf\u00e9 \u00b2'\n"
    assert source_nfkc(text.encode("latin-1"), text) == unicodedata.normalize("NFKC", text)
    assert source_nfkc(b"x = 1\n", "x = 1\n") == "x = 1\n"
