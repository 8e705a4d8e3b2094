# Write-after-read in straight-line code (issue 10's program): the reader of x is
# an Input, the writer an InOut, so the runtime would not order them; the writer waits for the
# reader's TaskId (captured, unguarded).
import nanopass.dsl as pl


@pl.program
class WarStraight:
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
    def orch_war_straight(
        self,
        x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        z: pl.Tensor[[16, 16], pl.FP32],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.read(x, y)
        x = self.write(z, x)
        return x
