# fuzz: dynamic_dims: shape: shape [M, 128] -> [M, [16]]
# expect: 10:41: error: expected a constant, got '[16]'
import nanopass.dsl as pl
M = pl.dynamic('M')

@pl.program
class DynamicDims:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_dyn(self) -> pl.Tensor[[M, [16]], pl.FP32]:
        pass
