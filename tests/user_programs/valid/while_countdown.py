# pl.while_ with a scalar carry and a tensor carry: steps until i reaches n; the carry is copied
# out after the loop.
import nanopass.dsl as pl


@pl.program
class WhileCountdown:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[8, 32], pl.FP32],
             dst: pl.InOut[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, src: pl.Tensor[[8, 32], pl.FP32],
             dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[8, 32], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 32], pl.FP32]],
            out: pl.Out[pl.Tensor[[8, 32], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 32], pl.FP32]:
        for (i, r) in pl.while_(init_values=(0, acc)):
            pl.cond(i < n)
            r = self.step(x, r)
            i2, r2 = pl.yield_(i + 2, r)
        out = self.copy(r2, out)
        return out
