# fuzz: dynamic_dims: duplicate: duplicate 'scratch = pl.create_tensor([M, cols], dtype=pl.FP32)'; module: module constant M = pl.dynamic('M') -> 1.5
# expect: 10:38: error: a dimension must be an int or pl.dynamic(...), got the float 1.5
import nanopass.dsl as pl
M = 1.5

@pl.program
class DynamicDims:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_dyn(self) -> pl.Tensor[[M, 128], pl.FP32]:
        pass
