# A reader at the end of one iteration and a writer at the start of the next: the
# reader's TaskId is carried in a cell (invalid on entry) and inserted under a guard.
import nanopass.dsl as pl


@pl.program
class WarNextIteration:
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
    def orch_war_next_iteration(
        self,
        x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        z: pl.Tensor[[16, 16], pl.FP32],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(n):
            x = self.write(z, x)
            y = self.read(x, y)
        return x
