# class: g++ rejects
# scalars grammar (--seed 41, scalars410000008, shrunk by hand): `-(-(s + 1))` is printed `--(s + 1)`: 'lvalue required as decrement operand' (45's printer slip on an expression)
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
        y = self.k0(y, -(-(s + 1)))
        return y
