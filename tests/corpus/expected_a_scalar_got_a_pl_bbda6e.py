# fuzz: return_order: unsupported: insert 'a += 1'
# expect: 10:9: error: expected a scalar, got a pl.Tensor[[8, 8], pl.FP32]
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self, a: pl.Tensor[[8, 8], pl.FP32]) -> pl.Tensor[[8, 8], pl.FP32]:
        a += 1
