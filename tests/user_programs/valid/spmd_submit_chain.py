# pl.spmd_submit twice: a literal core count with sync start, then a scalar core count that waits
# for the first launch through deps=.
import nanopass.dsl as pl


@pl.program
class GridChain:
    @pl.function(type=pl.FunctionType.AIV)
    def rowblk(self, src: pl.Tensor[[64, 32], pl.FP32],
               dst: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def drive(self, inp: pl.Tensor[[64, 32], pl.FP32], w: pl.Scalar[pl.INT32],
              mid: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
              fin: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        mid, g0 = pl.spmd_submit(self.rowblk, inp, mid, core_num=4, sync_start=True)
        fin, g1 = pl.spmd_submit(self.rowblk, mid, fin, core_num=w, deps=[g0])
        return fin
