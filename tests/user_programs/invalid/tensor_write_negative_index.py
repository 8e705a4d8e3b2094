# A host write at row -1.
# expect: 25:31: error: index -1 of axis 0 is outside the dimension of extent 16
# where: the index -1
import nanopass.dsl as pl


@pl.program
class TensorWriteNegativeIndex:
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
        out = self.copy(x, out)
        pl.tensor.write(out, [-1, 0], 1.0)
        return out
