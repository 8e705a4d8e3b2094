"""Wording and place of front-end errors a user meets: a kernel without a return annotation whose
results a call receives (a hint to annotate it), host printing in an orchestration function, and a
slice whose shape or offset has the wrong rank (at that argument, not the call)."""

from __future__ import annotations

import pytest

from conftest import load_program

import nanopass
from nanopass.errors import UserError

HEAD = '''import nanopass.dsl as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def pair(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
             c: pl.Out[pl.Tensor[[8, 16], pl.FP32]]):
        return b, c

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
'''
LINE = 18  # the line of the body's statement (HEAD has 17 lines)


def _error(tmp_path, statement: str) -> UserError:
    path = tmp_path / "prog.py"
    path.write_text(HEAD + f"        {statement}\n        return out\n")
    with pytest.raises(UserError) as info:
        nanopass.generate_orchestration(load_program(path))
    return info.value


@pytest.mark.parametrize("statement, message, result", [
    ("out = self.fill(x, out)", "kernel 'fill' returns 0 value(s) but 1 name(s) receive them",
     "def fill(...) -> pl.Tensor[[16, 16], pl.FP32]:"),
    # (was: "returns 0 value(s); unpack them as (a, b), tid", no hint)
    ("out, t = pl.submit(self.fill, x, out)", "kernel 'fill' returns nothing; write (), tid = pl.submit(...)",
     "def fill(...) -> pl.Tensor[[16, 16], pl.FP32]:"),
    ("out, y = self.pair(x, out, y)", "kernel 'pair' returns 0 value(s) but 2 name(s) receive them",
     "def pair(...) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[8, 16], pl.FP32]]:"),
])
def test_results_of_a_kernel_without_a_return_annotation_hint_to_annotate_it(tmp_path, statement, message, result):
    error = _error(tmp_path, statement)
    assert (error.span.line, error.span.col, error.message) == (LINE, 8, message)
    kernel = result.split("def ")[1].split("(")[0]
    line = {"fill": 7, "pair": 11}[kernel]
    assert error.hint == (f"kernel '{kernel}' (line {line}) has no return annotation, so it returns nothing to its "
                          f"caller: annotate it, {result}")


def test_print_is_refused_as_host_printing(tmp_path):
    error = _error(tmp_path, 'print("starting")')
    assert (error.span.line, error.span.col) == (LINE, 8)
    assert error.message.startswith("print(...) is host printing, which is not part of orchestration code")
    assert "pl.dump_tag(t)" in error.hint


@pytest.mark.parametrize("statement, column, part", [
    # "part = pl.slice(x, " is 19 characters after the 8 blanks
    ("part = pl.slice(x, [16], [0, 0])", 27, "this shape has 1 entry"),
    ("part = pl.slice(x, [16, 16], [0, 0, 0])", 37, "this offset has 3 entries"),
    ("part = pl.tensor.slice(x, [16, 16, 1], [0])", 34, "this shape has 3 entries"),
])
def test_a_slice_of_the_wrong_rank_is_refused_at_the_argument(tmp_path, statement, column, part):
    error = _error(tmp_path, statement)
    assert (error.span.line, error.span.col) == (LINE, column), error.span
    assert error.message.endswith("of a rank-2 tensor needs a shape and an offset of rank 2: " + part)
