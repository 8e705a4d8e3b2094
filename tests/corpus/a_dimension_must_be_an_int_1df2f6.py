# fuzz: dynamic_dims: module: module constant M = pl.dynamic('M') -> pl.Tensor[[16, 16], pl.FP32]; block: wrap 4 statement(s) in 'for i in pl.parallel(2):'
# expect: 10:38: error: a dimension must be an int or pl.dynamic(...), got a type (pl.Tensor[[16, 16], pl.FP32])
import nanopass.dsl as pl
M = pl.Tensor[[16, 16], pl.FP32]

@pl.program
class DynamicDims:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_dyn(self) -> pl.Tensor[[M, 128], pl.FP32]:
        pass
