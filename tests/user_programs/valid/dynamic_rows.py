# pl.dynamic extents: a per-row kernel over M rows, a scratch created with the run-time extent,
# pl.tensor.dim read into a scalar argument.
import nanopass.dsl as pl

M = pl.dynamic("M")


@pl.program
class DynamicRows:
    @pl.function(type=pl.FunctionType.AIV)
    def row_op(self, x: pl.Tensor[[M, 64], pl.FP32], r: pl.Scalar[pl.INT64],
               y: pl.InOut[pl.Tensor[[M, 64], pl.FP32]]) -> pl.Tensor[[M, 64], pl.FP32]:
        t: pl.Tile[[1, 64], pl.FP32] = pl.load(x, [r, 0], [1, 64])
        y = pl.store(t, [r, 0], y)
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def norm(self, rows: pl.Scalar[pl.INT64], src: pl.Tensor[[M, 64], pl.FP32],
             dst: pl.Out[pl.Tensor[[M, 64], pl.FP32]]) -> pl.Tensor[[M, 64], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[M, 64], pl.FP32], y: pl.InOut[pl.Tensor[[M, 64], pl.FP32]]) -> pl.Tensor[[M, 64], pl.FP32]:
        rows = pl.tensor.dim(x, 0)
        scratch = pl.create_tensor([M, 64], dtype=pl.FP32)
        scratch = self.norm(rows, x, scratch)
        for r in pl.range(rows):
            y = self.row_op(scratch, r, y)
        return y
