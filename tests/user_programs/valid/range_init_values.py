# pl.range with init_values carrying two tensors and an index-based scalar argument; the loop's
# results are returned as a tuple.
import nanopass.dsl as pl


@pl.program
class RangeCarries:
    @pl.function(type=pl.FunctionType.AIV)
    def update(self, x: pl.Tensor[[16, 16], pl.FP32], step: pl.Scalar[pl.INT64],
               m: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
               l: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        t = pl.load(x, [0, 0], [16, 16])
        m = pl.store(t, [0, 0], m)
        l = pl.store(t, [0, 0], l)
        return m, l

    @pl.function(type=pl.FunctionType.Orchestration)
    def online(self, x: pl.Tensor[[16, 16], pl.FP32], m0: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
               l0: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        for i, (m, l) in pl.range(0, n, 2, init_values=(m0, l0)):
            m2, l2 = self.update(x, i, m, l)
            m_out, l_out = pl.yield_(m2, l2)
        return m_out, l_out
