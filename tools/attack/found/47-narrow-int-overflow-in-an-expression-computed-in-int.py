# class: value scalar (narrow ints promoted)
# settled: docs/semantics.md states C's promotion (`a + 1 > 0` is true), the tester follows it. scalars grammar (--seed 41, scalars410000079, shrunk by hand): a: INT16 = 32767; `a + 1 > 0` has INT16 operands, so a + 1 is the INT16 -32768 (docs/semantics.md: scalars follow C's integer widths) and the comparison is False; the C++ computes a + 1 in int and passes True. Naming the sum first (`t = a + 1` then `t > 0`) makes an int16_t t and passes False: the meaning depends on whether an intermediate is named (also // and % of an INT8/INT16/UINT8/UINT16 sum)
#
# found on land41 (2ba6cdd), fixed in session 22:
# nothing (fixed)
import nanopass.dsl as pl

M = pl.dynamic("M")
N = pl.dynamic("N")
P = pl.dynamic("P")
Q = pl.dynamic("Q")


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def k0(self, t: pl.InOut[pl.Tensor[[P, Q], pl.FP32]], s0: pl.Scalar[pl.BOOL]) -> pl.Tensor[[P, Q], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri: pl.InOut[pl.Tensor[[16], pl.INT64]], rf: pl.InOut[pl.Tensor[[16], pl.FP32]], a: pl.Scalar[pl.INT16]) -> pl.Tensor[[M, N], pl.FP32]:
        y = self.k0(y, a + 1 > 0)
        return y
