# fuzz: war_same_iteration: indent: indent line 10
# expect: compiles
# A reader and a later writer in the same loop iteration: a direct, unguarded edge.
import nanopass.dsl as pl


@pl.program
class WarSameIteration:
    @pl.function(type=pl.FunctionType.AIV)
    def read(
        self,
            src: pl.Tensor[[16, 16], pl.FP32],
        dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def write(
        self,
        src: pl.Tensor[[16, 16], pl.FP32],
        dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_war_same_iteration(
        self,
        x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        z: pl.Tensor[[16, 16], pl.FP32],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(n):
            y = self.read(x, y)
            x = self.write(z, x)
        return x
