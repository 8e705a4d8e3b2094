# A host read one past the last row of a [16, 16] tensor.
# expect: 25:34: error: index 16 of axis 0 is outside the dimension of extent 16
# where: the index 16
import nanopass.dsl as pl


@pl.program
class TensorReadIndexOutOfRange:
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
        v = pl.tensor.read(out, [16, 0])
        return out
