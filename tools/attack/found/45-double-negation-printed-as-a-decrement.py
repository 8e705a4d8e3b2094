# class: value scalar
# scalars grammar (--seed 41, scalars410000022, shrunk by hand): `-(-s)` passed to a kernel is printed `--s`, a C++ pre-decrement: the task gets s - 1 and s itself is decremented for the rest of the program (46: the same of an expression is no lvalue and g++ rejects it; 51: a later slice offset read from s is off by one row; 52: of N, a shape; `-(-i)` of a loop variable never ends the loop: the run times out, class 'compiler timeout', scalars420000139)
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
        y = self.k0(y, -(-s))
        return y
