# fuzz: dynamic_dims: unsupported: insert 'global g'; module: module constant M = pl.dynamic('M') -> {}
# expect: 10:38: error: a dimension must be an int or pl.dynamic(...), got a dict
import nanopass.dsl as pl
M = {}

@pl.program
class DynamicDims:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_dyn(self) -> pl.Tensor[[M, 128], pl.FP32]:
        pass
