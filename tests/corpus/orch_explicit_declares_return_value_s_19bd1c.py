# fuzz: explicit_carries: shape: shape (m_out, l_out) -> (l_out,)
# expect: 17:9: error: 'orch_explicit' declares 2 return value(s) but returns 1
import nanopass.dsl as pl

@pl.program
class ExplicitCarries:

    @pl.function(type=pl.FunctionType.AIV)
    def update(self, x: pl.Tensor[[16, 16], pl.FP32], m: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], l: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_explicit(self, x: pl.Tensor[[16, 16], pl.FP32], m0: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], l0: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        for i, (m, l) in pl.range(n, init_values=(m0, l0)):
            m2, l2 = self.update(x, m, l)
            m_out, l_out = pl.yield_(m2, l2)
        return (l_out,)
