# class: refusal
# scalars grammar (--seed 42): an orchestration parameter `h: pl.Scalar[pl.FP16]` is refused ('... cannot be passed to an orchestration function (no host C++ type)'; BF16 alike). dsl.md lists FP16 and BF16 among `pl.Scalar` dtypes; the runtime has DataType FLOAT16/BFLOAT16 and to_u64 takes any 2-byte trivially copyable type, so the bits could pass through unchanged
#
# found on land41 (2ba6cdd), ruled out by docs/semantics.md in session 22:
# invalid: Invalid: an FP16 / BF16 orchestration scalar
import nanopass.dsl as pl

M = pl.dynamic("M")
N = pl.dynamic("N")
P = pl.dynamic("P")
Q = pl.dynamic("Q")


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def k0(self, t: pl.InOut[pl.Tensor[[P, Q], pl.FP32]], s0: pl.Scalar[pl.FP16]) -> pl.Tensor[[P, Q], pl.FP32]:
        return t

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[M, 4], pl.FP32], y: pl.InOut[pl.Tensor[[M, N], pl.FP32]], ri: pl.InOut[pl.Tensor[[16], pl.INT64]], rf: pl.InOut[pl.Tensor[[16], pl.FP32]], h: pl.Scalar[pl.FP16]) -> pl.Tensor[[M, N], pl.FP32]:
        y = self.k0(y, h)
        return y
