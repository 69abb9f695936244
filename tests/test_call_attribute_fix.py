"""``call_attribute``'s text path gives exactly the fix libcst's path gives, on every call shape.

The text path (no libcst) handles a call written exactly ``callee(...)``; every
other spelling goes through ``rewrite_call``. Each case below is summarized as
steplint summarizes files, and every call with a dotted callee is fixed both
ways: the two ``Fix`` objects must be equal, and the shapes the text path is
meant for must actually take it.
"""

from __future__ import annotations

import itertools
from functools import partial

import pytest
from expectations import FIXTURES

from steplint.summaries.file_summary import summarize_source
from steplint.fixes.positions import text_between
from steplint.fixes.rewrites import is_plain_call, with_attribute, call_attribute, rewrite_call
from steplint.source.reading import decode_source
from steplint.core.summary import Ref

TITLE = "Call 'tick.__wrapped__(...)' inline"


def _calls(text: str) -> list[tuple[object, str]]:
    """(span, dotted callee) of every call with a dotted callee, as the summary records them."""
    summary = summarize_source(text.encode("utf-8"), "case.py")
    assert summary.error is None, summary.error
    return [(c.span, c.callee.dotted) for f in summary.functions for c in f.calls if isinstance(c.callee, Ref)]


def _both_ways(text: str, span, callee: str):  # noqa: ANN001
    fast = call_attribute(text, span, callee, "__wrapped__", title=TITLE, safe=False)
    slow = rewrite_call(text, span, callee, partial(with_attribute, "__wrapped__"), title=TITLE, safe=False)
    return fast, slow


# Written exactly ``callee(...)``: the text path applies.
PLAIN = [
    "tick(x)",
    "tick()",
    "tick(x,)",
    "tick(*args, **kwargs)",
    "tick(x)(y)",
    "tick(tock(x), tock(y=1))",
    "jobs.tick(x)",
    "self.a.b.tick(x)",
    "tick(\n    x,\n    y,\n)",
    "tick(  # a comment (with a parenthesis\n    x)",
    "tick(x,  \\\n  y)",
    "tick(')', \"(\", '''\n)''')",
    "tick(f'{x!r:>{w}}', rb'\\x00')",
    "tick(x for x in range(3))",
    "tick(lambda y: (y, tock(y)))",
    "tick(y := 1)",
    "tïck('é', ü='ü')",
    "naïve.tëst('日本語🙂', 名前='x') if False else tick('日本')",
    "tick(\tx,\x0cy)",
]
# Any other spelling: the libcst path decides.
OTHER = [
    "tick (x)",
    "tick\t(x)",
    "(tick)(x)",
    "( tick )(x)",
    "(\n  tick\n)(x)",
    "jobs .tick(x)",
    "jobs. tick(x)",
    "(jobs\n .tick)(x)",
    "(jobs  # c\n .tick)(x)",
    "ｔｉｃｋ(x)",  # NFKC folds it to ``tick``: the text does not hold the callee as summarized
    "ﬁx(x)",
    "tick(\r\n    x)",  # libcst prints the line break inside as "\n"
    "tick(\r    x)",
]
CONTEXTS = ["{call}\n", "x = {call}\n", "async def f():\n    return await {call}\n", "y = [{call} for i in z]\n"]


def _case_texts(calls: list[str]) -> list[str]:
    texts = []
    for call, context in itertools.product(calls, CONTEXTS):
        text = context.format(call=call)
        if "\r" in call:  # one line-break style per file
            text = text.replace("\n", "\r\n" if "\r\n" in call else "\r").replace("\r\r\n", "\r\n")
        texts.append(text)
    return texts


# Whole files: other line-break styles and characters before the call (columns count characters).
FILES = ["a = 1\r\nb = tick(a)\r\n", "a = 1\rb = tick(a)\r", "é = 'ü'; b = tick(é)\n", "\ufeffb = tick(1)\n", "if x:\n\tb = jobs.tick(1)\n"]


@pytest.mark.parametrize("text", _case_texts(PLAIN + OTHER) + FILES, ids=repr)
def test_text_path_and_libcst_path_make_the_same_fix(text):
    calls = _calls(text)
    text = decode_source(text.encode("utf-8"))  # the text fixes are made from (no BOM)
    assert calls
    for span, callee in calls:
        fast, slow = _both_ways(text, span, callee)
        assert fast == slow
        assert slow is not None or "ﬁ" in text or "ｔ" in text


@pytest.mark.parametrize("call", PLAIN, ids=repr)
def test_a_plain_call_takes_the_text_path(call):
    span, callee = _calls(f"x = {call}\n")[0]
    assert is_plain_call(text_between(f"x = {call}\n", span), callee)


@pytest.mark.parametrize("call", OTHER, ids=repr)
def test_any_other_spelling_takes_the_libcst_path(call):
    text = f"x = {call}\n"
    span, callee = _calls(text)[-1]
    assert not is_plain_call(text_between(text, span), callee)


@pytest.mark.parametrize("changed", ["x = tick(\n", "x = tock(1)\n", "x = tick[1]\n", "x = tick(1\n", "x = tick)1(\n", "x = t(ck(1)\n"])
def test_a_text_that_no_longer_holds_the_call_gets_no_fix_either_way(changed):
    [(span, callee)] = _calls("x = tick(1)\n")
    assert _both_ways(changed, span, callee) == (None, None)


def test_every_call_in_the_fixtures_gets_the_same_fix_both_ways():
    compared = 0
    for path in sorted(FIXTURES.rglob("*.py")):
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        summary = summarize_source(path.read_bytes(), str(path))
        if summary.error is not None:
            continue
        for function in summary.functions:
            for call in function.calls:
                if isinstance(call.callee, Ref):
                    fast, slow = _both_ways(text, call.span, call.callee.dotted)
                    assert fast == slow, (path, call.span)
                    compared += 1
    assert compared > 200
