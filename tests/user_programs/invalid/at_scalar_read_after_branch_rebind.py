# A scalar a pl.at block computes (kernel-side), rebound in one branch of an if and read after it:
# where the other branch was taken the read is the kernel's scalar, which cannot leave the kernel.
# The error belongs at that read (was: "'s' is not visible here: it was defined only in the
# then-branch of the if", though the block binds it before the if).
# expect: 24:12: error: 's' is computed inside the pl.at block at line 21 (a kernel) and read here
# where: the name s in "if s > 0"
import nanopass.dsl as pl


@pl.program
class AtScalarReadAfterBranchRebind:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INT32],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            s: pl.Scalar[pl.INT32] = pl.tile.get_block_idx()
        if n > 0:
            s = 4
        if s > 0:
            out = self.fill(x, out)
        return out
