"""A source written through a view made before its assemble, after an ``if`` that assembles it
in one branch and swaps it away in the other, while the target's rows are read at the end: the
placement would let the write reach the target (tools/attack rebinds seed 5591's
r55910001074, which branch assemble55 compiled to a final value of ``a`` holding ``upD``'s
write instead of ``wrB``'s copy, for c = 1). It must stay refused."""

from __future__ import annotations

import pytest

from nanopass.errors import UserError
from nanopass.tools.properties import compile_text

PROGRAM = '''import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def wrB(self, p0: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.AIV)
    def upD(self, p0: pl.InOut[pl.Tensor[[2, 4], pl.FP32]]) -> pl.Tensor[[2, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        t = pl.create_tensor([4, 4], dtype=pl.FP32)
        u = pl.create_tensor([4, 4], dtype=pl.FP32)
        t = self.wrB(t)
        v = pl.tensor.slice(t, [2, 4], [2, 0])
        if c > 0:
            a = pl.assemble(a, t, [4, 0])
        else:
            r1 = t
            t = u
            u = r1
        v = self.upD(v)
        return a
'''


def test_a_write_through_an_earlier_view_after_a_swapping_if_keeps_the_refusal():
    with pytest.raises(UserError, match="'t' is used after it was assembled into 'a'"):
        compile_text(PROGRAM)
