# fuzz: dynamic_dims: replace: replace 'pl.tensor.dim(x, 0)' by 'x'; indent: tab on line 16
# expect: 16:29: error: parameter 'rows' of 'fill' is a pl.Scalar[pl.INT64] but the argument is a pl.Tensor[[M, 128], pl.FP32]
import nanopass.dsl as pl
M = pl.dynamic('M')

@pl.program
class DynamicDims:

    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, rows: pl.Scalar[pl.INT64], buf: pl.Out[pl.Tensor[[M, 128], pl.FP32]]) -> pl.Tensor[[M, 128], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_dyn(self, x: pl.Tensor[[M, 128], pl.FP32]) -> pl.Tensor[[M, 128], pl.FP32]:
        rows = x
        scratch = self.fill(rows, scratch)
