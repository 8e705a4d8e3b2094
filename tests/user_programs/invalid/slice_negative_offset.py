# A slice window starting before its source (the C++ got static_cast<uint32_t>(-4)).
# expect: 24:38: error: offset -4 of axis 0 is below 0
# where: the offset -4
import nanopass.dsl as pl


@pl.program
class SliceNegativeOffset:
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
        part = pl.slice(x, [8, 16], [-4, 0])
        out = self.copy(part, out)
        return out
