# Every short view op feeding one kernel: a window of a bigger tensor, a reshape, a transpose with
# a negative axis, and pl.tensor.view.
import nanopass.dsl as pl


@pl.program
class Views:
    @pl.function(type=pl.FunctionType.AIV)
    def scale_rows(self, src: pl.Tensor[[8, 32], pl.FP32],
                   dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, big: pl.Tensor[[24, 32], pl.FP32], flat: pl.Tensor[[4, 64], pl.FP32],
            tall: pl.Tensor[[32, 8], pl.FP32],
            res: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        win = pl.slice(big, [8, 32], [16, 0])
        res = self.scale_rows(win, res)
        r2 = pl.reshape(flat, [8, 32])
        res = self.scale_rows(r2, res)
        tr = pl.transpose(tall, 0, -1)
        res = self.scale_rows(tr, res)
        v = pl.tensor.view(flat, [8, 32])
        res = self.scale_rows(v, res)
        return res
