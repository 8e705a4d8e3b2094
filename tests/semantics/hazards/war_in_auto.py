# A write-after-read the runtime does not order: task 1 overwrites x, which task 0 reads, and
# the runtime records no readers (runtime-api.md section 11). `nanopass check` reports it.
import nanopass.dsl as pl


@pl.program
class WarInAuto:
    @pl.function(type=pl.FunctionType.AIV)
    def k_copy(
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
        b: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.k_copy(x, y)
        x = self.k_copy(b, x)
        return y
