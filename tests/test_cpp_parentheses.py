"""Scalar expressions print as g++ -Wall -Werror accepts them: the operands -Wparentheses asks to see
parenthesized (a sum in a shift, a conjunction in a disjunction, a comparison in a comparison) are,
and nothing else gains parentheses."""

from __future__ import annotations

from conftest import compile_check, load_program

import nanopass

PROGRAM = '''
import nanopass.dsl as pl


@pl.program
class Parens:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, x: pl.Tensor[[16, 16], pl.FP32], row: pl.Scalar[pl.INT64], on: pl.Scalar[pl.BOOL],
          y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(x, [0, 0], [16, 16])
        r: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], y)
        return r

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
             n: pl.Scalar[pl.INT64], a: pl.Scalar[pl.BOOL], b: pl.Scalar[pl.BOOL]) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.k(x, (n - 1) >> 1, a or (b and n > 2), y)
        y = self.k(x, n << (n + 1), (n < 2) == a, y)
        y = self.k(x, (n - 1) - (n - 2), a and b or a, y)
        return y
'''


def test_operands_gpp_warns_about_are_parenthesized_and_no_others(tmp_path):
    path = tmp_path / "parens.py"
    path.write_text(PROGRAM)
    code = nanopass.generate_orchestration(load_program(path)).code
    compile_check(code, tmp_path)  # -Wall -Werror: -Wparentheses refuses the unparenthesized forms
    assert "(n - 1) >> 1" in code
    assert "a || (b && n > 2)" in code
    assert "n << (n + 1)" in code
    assert "(n < 2) == a" in code
    assert "n - 1 - (n - 2)" in code  # left-associative: only the right operand
    assert "(a && b) || a" in code
