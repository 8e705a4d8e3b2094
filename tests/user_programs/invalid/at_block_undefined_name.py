# A typo in a pl.at block: yy for y, the tensor the block before it computes (accepted, the second
# task lost its input y and no longer waited for the first).
# expect: 16:46: error: name 'yy' is not defined
# where: the name yy
import nanopass.dsl as pl


@pl.program
class AtBlockUndefinedName:
    @pl.function
    def main(self, x: pl.Tensor[[16, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            y = pl.add(x, x)
        with pl.at(level=pl.Level.CORE_GROUP):
            out = pl.assemble(out, pl.add(x, yy), [0, 0])
        return out
