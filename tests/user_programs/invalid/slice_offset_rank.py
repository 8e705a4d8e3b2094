# pl.slice with a 3-D offset on a 2-D tensor (its shape right): the error is at the offset.
# expect: 24:37: error: needs a shape and an offset of rank 2: this offset has 3 entries
# where: the offset argument [0, 0, 0]
import nanopass.dsl as pl


@pl.program
class SliceOffsetRank:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, src: pl.Tensor[[16, 16], pl.FP32], f: pl.Scalar[pl.FP32],
            dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        part = pl.slice(x, [16, 8], [0, 0, 0])
        out = self.copy(part, out)
        return out
