# reference-surface.md section 2: pl.slice / pl.tensor.slice with clamp=True, a window that may run
# past the source's end; its extents are cut to what is left of the source after the offset.
import nanopass.dsl as pl


@pl.program
class SliceClamp:
    @pl.function(type=pl.FunctionType.AIV)
    def scale_rows(self, src: pl.Tensor[[8, 32], pl.FP32],
                   dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, big: pl.Tensor[[20, 32], pl.FP32], row: pl.Scalar[pl.INT64],
            res: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        tail = pl.slice(big, [8, 32], [16, 0], clamp=True)
        res = self.scale_rows(tail, res)
        win = pl.tensor.slice(big, [8, 32], [row, 0], clamp=True)
        res = self.scale_rows(win, res)
        return res
