# A TaskId carried out of a loop of a manual scope (bound to None before it): the final task waits
# for the last iteration's task.
import nanopass.dsl as pl


@pl.program
class LoopTid:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, x: pl.Tensor[[16, 16], pl.FP32],
             y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def use(self, y: pl.Tensor[[16, 16], pl.FP32],
            z: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return z

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
             z: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            t = None
            for i in pl.range(n):
                y, t = pl.submit(self.step, x, y, deps=[t])
            z, u = pl.submit(self.use, y, z, deps=[t])
        return z
