# Readers of x in every iteration of a loop, a writer of x after the loop: every run's read is
# live after the loop, but the runs are ordered among themselves (each rewrites all of y as
# InOut, so the runtime makes each run wait for the one before), so the writer waits for the
# last run only, through a cell.
import nanopass.dsl as pl


@pl.program
class WarLoopThenWriter:
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
    def orch_war_loop_then_writer(
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
