# fuzz: dynamic_dims: replace: replace '([M, 128], pl.FP32)' by '2.5'; module: module constant M = pl.dynamic('M') -> (4,)
# expect: 10:38: error: a dimension must be an int or pl.dynamic(...), got a tuple
import nanopass.dsl as pl
M = (4,)

@pl.program
class DynamicDims:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_dyn(self) -> pl.Tensor[[M, 128], pl.FP32]:
        pass
