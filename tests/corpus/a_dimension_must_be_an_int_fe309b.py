# fuzz: dynamic_dims: unsupported: insert 'pl.submit(self.k, a)'; module: module constant M = pl.dynamic('M') -> pl.FunctionType.AIV
# expect: 10:38: error: a dimension must be an int or pl.dynamic(...), got a function type (pl.FunctionType.AIV)
import nanopass.dsl as pl
M = pl.FunctionType.AIV

@pl.program
class DynamicDims:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_dyn(self) -> pl.Tensor[[M, 128], pl.FP32]:
        pass
