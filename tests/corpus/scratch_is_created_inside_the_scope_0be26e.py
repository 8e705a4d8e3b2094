# fuzz: dynamic_dims: block: wrap 3 statement(s) in 'with pl.manual_scope():'; dtype: dtype FP32 -> UINT16
# expect: 17:13: error: 'scratch' is created inside the scope with a shape computed there, and used after the scope
import nanopass.dsl as pl
M = pl.dynamic('M')

@pl.program
class DynamicDims:

    @pl.function(type=pl.FunctionType.AIV)
    def row_op(self, x: pl.Tensor[[M, 128], pl.FP32], r: pl.Scalar[pl.INT64], y: pl.InOut[pl.Tensor[[M, 128], pl.FP32]]) -> pl.Tensor[[M, 128], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_dyn(self, x: pl.Tensor[[M, 128], pl.FP32], y: pl.InOut[pl.Tensor[[M, 128], pl.FP32]]) -> pl.Tensor[[M, 128], pl.FP32]:
        with pl.manual_scope():
            cols = pl.tensor.dim(x, 1)
            scratch = pl.create_tensor([M, cols], dtype=pl.FP32)
        for r in pl.range(M):
            y = self.row_op(scratch, r, y)
        return y
