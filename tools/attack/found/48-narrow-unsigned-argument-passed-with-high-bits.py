# class: value scalar-encoding
# settled: docs/semantics.md says the slot is `(uint64_t)` of the argument's C value (the int -1), the tester follows it. scalars grammar (exhaustive size 2, shrunk): p: UINT8 = 0; `p - 1` is the UINT8 255, which D4 passes as (uint64_t)255 = 0xff; the C++ passes (uint64_t)(p - 1) computed in int, 0xffffffffffffffff. A kernel reading its UINT8 parameter sees 255 either way (the same with INT8/INT16 values that wrap: 127 + 1 arrives as 0x80, D4 says 0xffffffffffffff80)
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
    def k0(self, t: pl.InOut[pl.Tensor[[P, Q], pl.FP32]], s0: pl.Scalar[pl.UINT8]) -> pl.Tensor[[P, Q], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri: pl.InOut[pl.Tensor[[16], pl.INT64]], rf: pl.InOut[pl.Tensor[[16], pl.FP32]], p: pl.Scalar[pl.UINT8]) -> pl.Tensor[[M, N], pl.FP32]:
        y = self.k0(y, p - 1)
        return y
