# fuzz: return_order: module: module constant T = pl.Tensor[[8, 8], pl.FP32] -> -4; unsupported: insert 'for i in pl.range(2):'
# expect: 11:13: error: 'break' is not supported in orchestration loops
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self) -> pl.Tensor[[8, 8], pl.FP32]:
        for i in pl.range(2):
            break
