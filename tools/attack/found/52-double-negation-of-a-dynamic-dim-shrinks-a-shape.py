# class: wrong shape
# scalars grammar (--seed 42, scalars420000074, shrunk by hand): `-(-N)` of the pl.dynamic symbol N is printed `--N`, which decrements N: the task gets N - 1, and the slice `[M, N]` after it is one column narrower than y (in a loop, one narrower each iteration, down to 0 and 4294967294)
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
    def orch(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri: pl.InOut[pl.Tensor[[16], pl.INT64]], rf: pl.InOut[pl.Tensor[[16], pl.FP32]]) -> pl.Tensor[[M, N], pl.FP32]:
        y = self.k0(y, -(-N))
        w = pl.tensor.slice(y, [M, N], [0, 0])
        w = self.k0(w, 1)
        return y
