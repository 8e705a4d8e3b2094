# A with pl.spmd block capturing a scalar parameter, with dumps= and allow_early_resolve=.
import nanopass.dsl as pl


@pl.program
class SpmdDumps:
    @pl.function
    def main(self, a: pl.Tensor[[64, 32], pl.FP32], out: pl.InOut[pl.Tensor[[64, 32], pl.FP32]],
             g: pl.Scalar[pl.FP32]) -> pl.Tensor[[64, 32], pl.FP32]:
        with pl.spmd(4, dumps=[a], allow_early_resolve=True):
            b = pl.tile.get_block_idx()
            t = pl.load(a, [b * 16, 0], [16, 32])
            out = pl.store(pl.muls(t, g), [b * 16, 0], out)
        return out
