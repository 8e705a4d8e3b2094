# fuzz: return_order: drop: drop 'return out'; replace: replace '[8, 8]' by '2.5'
# expect: 10:30: error: pl.create_tensor: a shape must be a list, like [16, 16]
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self) -> pl.Tensor[[8, 8], pl.FP32]:
        y = pl.create_tensor(2.5, dtype=pl.FP32)
