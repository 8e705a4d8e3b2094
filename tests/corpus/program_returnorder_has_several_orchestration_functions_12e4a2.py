# fuzz: return_order: decorator: decorate use with @pl.function(type=pl.FunctionType.Orchestration); module: module constant T = pl.Tensor[[8, 8], pl.FP32] -> lambda: 3
# expect: 13:5: error: 'orch_order' declares a return type but does not end with a return statement
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def use(self) -> pl.Tensor[[8, 8], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self) -> pl.Tensor[[8, 8], pl.FP32]:
        pass
