# fuzz: dynamic_dims: replace: replace 'self' by 'pl.system.task_invalid()'; shape: shape [M, 128] -> [16]
# expect: 11:33: error: pl.tensor.dim axis is out of range for a rank-1 tensor
import nanopass.dsl as pl
M = pl.dynamic('M')

@pl.program
class DynamicDims:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_dyn(self, x: pl.Tensor[[16], pl.FP32], y: pl.InOut[pl.Tensor[[M, 128], pl.FP32]]) -> pl.Tensor[[M, 128], pl.FP32]:
        cols = pl.tensor.dim(x, 1)
