# Issue 10's program: task 1 overwrites x (an InOut parameter), which task 0 reads, and the
# runtime records no readers (runtime-api.md section 11). By default order_write_after_read gives
# task 1 an explicit dependency on task 0; with --no-war-ordering `nanopass check` reports the WAR.
import nanopass.dsl as pl


@pl.program
class WarInAuto:
    @pl.function(type=pl.FunctionType.AIV)
    def k(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def k2(
        self,
        a: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        z: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.k(x, y)
        x = self.k2(z, x)
        return y
