# Both boundaries of a manual scope: inside it the runtime tracks nothing, so a
# task in the scope waits for the last writer (and readers) before it, and a task after the scope
# waits for the writers inside it.
import nanopass.dsl as pl


@pl.program
class WarManualBoundary:
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
    def orch_war_manual_boundary(
        self,
        x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        z: pl.Tensor[[16, 16], pl.FP32],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        x = self.write(z, x)
        y = self.read(z, y)
        with pl.manual_scope():
            y, t1 = pl.submit(self.read, x, y)
            x, t2 = pl.submit(self.write, y, x, deps=[t1])
        z3 = pl.create_tensor([16, 16], dtype=pl.FP32)
        z3 = self.read(x, z3)
        return x
