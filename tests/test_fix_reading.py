"""Fixes and the full report read files through source/reading: bounded, and never blocked by a FIFO."""

from __future__ import annotations

import os

import pytest

from steplint.fixes.source_texts import SourceTexts
from steplint.report.text_format import source_from_disk
from steplint.source.reading import decode_keeping_encoding, readable_bytes, readable_text

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")


def test_a_fifo_named_like_a_module_is_refused_not_opened(tmp_path):
    pipe = tmp_path / "x.py"
    os.mkfifo(pipe)  # opening it for reading without O_NONBLOCK would wait for a writer forever
    assert readable_bytes(str(pipe)) is None
    assert source_from_disk(str(pipe)) is None
    assert SourceTexts().text(str(pipe)) is None


def test_a_file_over_the_size_limit_has_no_text(tmp_path):
    path = tmp_path / "big.py"
    path.write_bytes(b"x = 1\n" * 10)
    assert readable_text(str(path), max_size=10) is None
    assert readable_text(str(path), max_size=0) == "x = 1\n" * 10


def test_seeded_text_wins_over_the_file(tmp_path):
    path = tmp_path / "m.py"
    path.write_bytes(b"on_disk = 1\n")
    texts = SourceTexts()
    texts.seed({str(path): b"in_memory = 1\n"})
    assert texts.text(str(path)) == "in_memory = 1\n"


def test_decoding_keeps_the_declared_encoding():
    assert decode_keeping_encoding("# -*- coding: latin-1 -*-\nname = 'é'\n".encode("latin-1")) == (
        "# -*- coding: latin-1 -*-\nname = 'é'\n",
        "iso-8859-1",
    )
