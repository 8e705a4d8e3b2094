# class: wrong offset
# 45's decrement seen in a shape: `t = -(-s)` is printed `int64_t t = --s;`, so the slice `pl.tensor.slice(y, [1, 1], [s, 0])` after it starts one row early
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
    def k0(self, t: pl.InOut[pl.Tensor[[P, Q], pl.FP32]], s0: pl.Scalar[pl.INT64]) -> pl.Tensor[[P, Q], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri: pl.InOut[pl.Tensor[[16], pl.INT64]], rf: pl.InOut[pl.Tensor[[16], pl.FP32]], s: pl.Scalar[pl.INT64]) -> pl.Tensor[[M, N], pl.FP32]:
        t = -(-s)
        w = pl.tensor.slice(y, [1, 1], [s, 0])
        w = self.k0(w, t)
        return y
