# class: wrong shape
# scalars grammar (--seed 42, r420000…, shrunk by hand): `-(-N)` of the pl.dynamic symbol N is printed `--N`, which decrements N: the task gets N - 1, and the slice `[M, N]` after it is one column narrower than y (in a loop, one narrower each iteration, down to 0 and 4294967294)
#
# still open on land41 (2ba6cdd):
# [value scalar] M=2 N=3: task k0 (line 17) scalar 0 (INT64) is 0x2, the program means 3 (0x3)
# [wrong shape] M=2 N=3: task k0 (line 19) tensor shapes [2, 2], the program means [2, 3]
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
