# An inline function holding a pl.while_ loop inside a manual scope with a TaskId carry.
import nanopass.dsl as pl


@pl.program
class InlineWhileManual:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def repeat(self, src: pl.Tensor[[16, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
               times: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            t = None
            for (i, a) in pl.while_(init_values=(0, acc)):
                pl.cond(i < times)
                a, t = pl.submit(self.step, src, a, deps=[t])
                i2, a2 = pl.yield_(i + 1, a)
        return a2

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
            z: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.repeat(x, y, n)
        z = self.repeat(y, z, 2)
        return z
