# A helper function defined inside a pl.at block (a kernel block holds tile operations, not
# definitions): the message quotes the statement on one line, its header and "...".
# expect: 16:13: error: a kernel block cannot hold this statement: 'def clamp(v): ...'
# where: the def keyword
import nanopass.dsl as pl


@pl.program
class HelperFunctionInAtBlock:
    @pl.function
    def main(self, x: pl.Tensor[[16, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [16, 16])

            def clamp(v):
                return v

            out = pl.store(t, [0, 0], out)
        return out
