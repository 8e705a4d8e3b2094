# fuzz: dynamic_dims: module: module constant M = pl.dynamic('M') -> None; module: module constant M = None -> True
# expect: 10:38: error: a dimension must be an int or pl.dynamic(...), got True
import nanopass.dsl as pl
M = True

@pl.program
class DynamicDims:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_dyn(self) -> pl.Tensor[[M, 128], pl.FP32]:
        pass
