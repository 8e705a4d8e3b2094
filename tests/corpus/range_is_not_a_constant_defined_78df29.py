# fuzz: dynamic_dims: rename: rename one M -> range
# expect: 10:47: error: 'range' is not a constant defined at module level
import nanopass.dsl as pl
M = pl.dynamic('M')

@pl.program
class DynamicDims:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_dyn(self, y: pl.InOut[pl.Tensor[[range, 128], pl.FP32]]) -> pl.Tensor[[M, 128], pl.FP32]:
        pass
