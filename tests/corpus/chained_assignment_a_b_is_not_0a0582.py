# fuzz: return_order: unsupported: insert 'a = b = a'
# expect: 10:9: error: chained assignment (a = b = ...) is not supported
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self) -> pl.Tensor[[8, 8], pl.FP32]:
        a = b = a
