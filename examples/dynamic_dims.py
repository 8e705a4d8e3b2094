# pl.dynamic shapes: a symbol names the run-time extent of the first tensor parameter declaring
# it, is defined once at entry when (and only when) the body uses it, and pl.tensor.dim on a
# dynamic extent folds onto the symbol.
import nanopass.dsl as pl

M = pl.dynamic("M")
N = pl.dynamic("N")


@pl.program
class DynamicDims:
    @pl.function(type=pl.FunctionType.AIV)
    def row_op(
        self,
        x: pl.Tensor[[M, 128], pl.FP32],
        r: pl.Scalar[pl.INT64],
        y: pl.InOut[pl.Tensor[[M, 128], pl.FP32]],
    ) -> pl.Tensor[[M, 128], pl.FP32]:
        t: pl.Tile[[1, 128], pl.FP32] = pl.load(x, [r, 0], [1, 128])
        o: pl.Tensor[[M, 128], pl.FP32] = pl.store(t, [r, 0], y)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def fill(
        self,
        rows: pl.Scalar[pl.INT64],
        buf: pl.Out[pl.Tensor[[M, 128], pl.FP32]],
    ) -> pl.Tensor[[M, 128], pl.FP32]:
        return buf

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_dyn(
        self,
        x: pl.Tensor[[M, 128], pl.FP32],
        y: pl.InOut[pl.Tensor[[M, 128], pl.FP32]],
        z: pl.Tensor[[N, 128], pl.FP32],
    ) -> pl.Tensor[[M, 128], pl.FP32]:
        rows = pl.tensor.dim(x, 0)
        cols = pl.tensor.dim(x, 1)
        scratch = pl.create_tensor([M, cols], dtype=pl.FP32)
        scratch = self.fill(rows, scratch)
        for r in pl.range(M):
            y = self.row_op(scratch, r, y)
        return y
