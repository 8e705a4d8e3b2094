# `with pl.spmd(4) as g:` then `for i in pl.spmd(n, deps=[g])`: regions outlined into kernels
# launched on their block count; each block reads its block index.
import nanopass.dsl as pl


@pl.program
class SpmdRegions:
    @pl.function
    def main(self, a: pl.Tensor[[64, 32], pl.FP32], out: pl.InOut[pl.Tensor[[64, 32], pl.FP32]],
             n: pl.Scalar[pl.INT32]) -> pl.Tensor[[64, 32], pl.FP32]:
        with pl.spmd(4, name_hint="copy_rows") as g:
            b = pl.tile.get_block_idx()
            t = pl.load(a, [b * 16, 0], [16, 32])
            out = pl.store(t, [b * 16, 0], out)
        for i in pl.spmd(n, deps=[g]):
            t = pl.load(out, [i * 16, 0], [16, 32])
            out = pl.store(pl.exp(t), [i * 16, 0], out)
        return out
