# class: refusal
# scalars grammar (--seed 42, 1 program; shrunk by hand): u: UINT32; `u < -2` (or `u < 1 - 3`) is refused ('cannot compare UINT32 with -2: C++ compares them as uint32_t, where a negative value is a huge one'; UINT64 alike). The program has a meaning: the literal takes u's dtype (4294967294), which is also what C++ computes (docs/semantics.md: scalars follow C); the same comparison of a UINT8 compiles and runs right
#
# found on land41 (2ba6cdd), ruled out by docs/semantics.md in session 22:
# invalid: Invalid: a UINT32 / UINT64 compared with a negative value
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
    def orch(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri: pl.InOut[pl.Tensor[[16], pl.INT64]], rf: pl.InOut[pl.Tensor[[16], pl.FP32]], u: pl.Scalar[pl.UINT32]) -> pl.Tensor[[M, N], pl.FP32]:
        y = self.k0(y, u < -2)
        return y
