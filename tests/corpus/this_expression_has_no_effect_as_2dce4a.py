# fuzz: return_order: unsupported: insert 'yield a'
# expect: 10:9: error: this expression has no effect as a statement: 'yield a'
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self) -> pl.Tensor[[8, 8], pl.FP32]:
        yield a
