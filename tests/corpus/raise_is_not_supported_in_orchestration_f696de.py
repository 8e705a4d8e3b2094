# fuzz: return_order: unsupported: insert 'raise ValueError('no')'
# expect: 10:9: error: raise is not supported in orchestration functions
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self) -> pl.Tensor[[8, 8], pl.FP32]:
        raise ValueError('no')
