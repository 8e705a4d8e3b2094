# fuzz: return_order: unsupported: insert 'x = pl.tensor.reshape(a, [7])'; block: wrap 1 statement(s) in 'for i in pl.range(2):'
# expect: 10:34: error: pl.tensor.reshape cannot change the element count (64 to 7)
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self, a: pl.Tensor[[8, 8], pl.FP32]) -> pl.Tensor[[8, 8], pl.FP32]:
        x = pl.tensor.reshape(a, [7])
