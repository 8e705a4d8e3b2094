# A typo in a pl.spmd block: scal for scale, a parameter (the help line names it).
# expect: 15:46: error: did you mean 'scale'?
# where: the name scal
import nanopass.dsl as pl


@pl.program
class SpmdBlockUndefinedName:
    @pl.function
    def main(self, x: pl.Tensor[[64, 32], pl.FP32], scale: pl.Tensor[[64, 32], pl.FP32],
             out: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:
        with pl.spmd(4):
            i = pl.tile.get_block_idx()
            t = pl.load(x, [i * 16, 0], [16, 32])
            out = pl.store(pl.mul(t, pl.load(scal, [i * 16, 0], [16, 32])), [i * 16, 0], out)
        return out
