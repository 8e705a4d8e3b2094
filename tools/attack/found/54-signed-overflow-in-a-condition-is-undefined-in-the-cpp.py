# class: trace-mismatch
# scalars grammar (--seed 42, scalars420000137, shrunk by hand): a: INT32 = -2147483648; `-a` is the INT32 -2147483648 (C's widths wrap), so `if -a == a:` takes the then branch (task k0); the C++ compares `-a == a` in int32_t, a signed overflow, which g++ folds to `a == 0` (undefined behaviour) even at -O0, and submits k1. INT64 alike; `a + 1 < a` with a = INT32_MAX passes False where the program means True (a value scalar)
#
# found on land41 (2ba6cdd), ruled out by docs/semantics.md in session 22:
# invalid: Invalid: signed overflow
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

    @pl.function(type=pl.FunctionType.AIV)
    def k1(self, t: pl.InOut[pl.Tensor[[P, Q], pl.FP32]], s0: pl.Scalar[pl.INT64]) -> pl.Tensor[[P, Q], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri: pl.InOut[pl.Tensor[[16], pl.INT64]], rf: pl.InOut[pl.Tensor[[16], pl.FP32]], a: pl.Scalar[pl.INT32]) -> pl.Tensor[[M, N], pl.FP32]:
        if -a == a:
            y = self.k0(y, 1)
        else:
            y = self.k1(y, 2)
        return y
