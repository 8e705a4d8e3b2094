"""``ProgramSource.lines_text(first, last)`` cuts lines ``first`` to ``last`` out of the text
(``receivers_proved_by_text`` reads a function's lines so) without splitting the whole file into
lines: it must give what ``"\\n".join(lines()[first - 1:last])`` gives, for any text (lines
ending in "\\n", "\\r\\n" or "\\r", an empty last line, none) and any range (before the text,
past its end, empty), and must not split the file when its lines end in "\\n" alone."""

from __future__ import annotations

import ast

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import fuzz_budget

from nanopass.passes.frontend.source import ProgramSource

CLASSDEF = ast.parse("class P:\n    pass\n").body[0]
PIECES = st.sampled_from(["", "a", "b c", " ", "x = 1", "\n", "\n\n", "\r\n", "\r", "q\n", "é"])


def source(text: str) -> ProgramSource:
    return ProgramSource("P", "<p>", text, CLASSDEF)


def by_lines(text: str, first: int, last: int) -> str:
    return "\n".join(source(text).lines()[first - 1:last])


@settings(max_examples=fuzz_budget(400), deadline=None)
@given(st.lists(PIECES, max_size=12), st.integers(1, 14), st.integers(-1, 15))
def test_the_lines_cut_out_are_the_lines_joined(pieces, first, last):
    text = "".join(pieces)
    assert source(text).lines_text(first, last) == by_lines(text, first, last)


def test_each_range_of_a_text_of_four_lines():
    text = "def f():\n    a = 1\n\n    return a"
    for first in range(1, 7):
        for last in range(0, 7):
            assert source(text).lines_text(first, last) == by_lines(text, first, last), (first, last)
    assert source(text).lines_text(2, 3) == "    a = 1\n"
    assert source(text + "\n").lines_text(4, 9) == "    return a\n"


def test_a_file_whose_lines_end_in_newline_is_not_split():
    src = source("a\nb\nc\n")
    assert src.lines_text(2, 3) == "b\nc"
    assert src._lines is None
    crlf = source("a\r\nb\r\nc\r\n")
    assert crlf.lines_text(2, 3) == "b\nc"  # (its lines, as ast numbers them, without their "\r")
