# A while loop bounded by a count the host reads from a tensor the program wrote earlier.
import nanopass.dsl as pl


@pl.program
class HostCounter:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], cnt: pl.InOut[pl.Tensor[[1], pl.INT64]],
            acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.tensor.write(cnt, [0], n)
        limit = pl.tensor.read(cnt, [0])
        for (i, a) in pl.while_(init_values=(0, acc)):
            pl.cond(i < limit)
            a = self.step(x, a)
            i2, a2 = pl.yield_(i + 1, a)
        return a2
