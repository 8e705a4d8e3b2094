# A pl.at block's result that one branch of an if rebinds before any read: the other branch, and
# the code after the if, read the block's value (Python's meaning: the name is bound before the
# if), so the block passes it out (was: taken for unused after the block, then refused at the
# reads as "not visible"/"undefined variable").
import nanopass.dsl as pl


@pl.program
class AtResultReboundInBranch:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INT32],
             w: pl.Out[pl.Tensor[[16, 16], pl.FP32]], v: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.add(x, x)
        if n > 0:
            t = self.fill(x, w)
        else:
            v = self.fill(t, v)
        out = self.fill(t, out)
        return out
