# pl.submit and pl.spmd_submit each bound to a single name: the name is the whole tuple
# (reference-surface.md section 1, "a single LHS binds the whole tuple"): r[0] the result,
# r[1] or r[-1] the TaskId; a kernel with no result gives a tuple of the TaskId alone.
import nanopass.dsl as pl


@pl.program
class SingleNameSubmits:
    @pl.function(type=pl.FunctionType.AIV)
    def rowblk(self, src: pl.Tensor[[64, 32], pl.FP32],
               dst: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def probe(self, src: pl.Tensor[[64, 32], pl.FP32]):
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def drive(self, inp: pl.Tensor[[64, 32], pl.FP32], n: pl.Scalar[pl.INT64],
              mid: pl.Out[pl.Tensor[[64, 32], pl.FP32]],
              fin: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        with pl.manual_scope():
            r = pl.submit(self.rowblk, inp, mid)
            mid = r[0]
            for i in pl.range(n):
                r = pl.submit(self.rowblk, inp, mid, deps=[r[1]])
            p = pl.submit(self.probe, mid, deps=[r[-1]])
            g = pl.spmd_submit(self.rowblk, mid, fin, core_num=4, deps=[p[0]])
            fin = g[0]
            tid = g[1]
            last = pl.submit(self.probe, fin, deps=[tid])
        return fin
