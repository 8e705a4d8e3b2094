# fuzz: return_order: indent: empty the block of line 34
# expect: 9:5: error: function 'orch_order' must take 'self' as its first parameter
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order() -> pl.Tensor[[8, 8], pl.FP32]:
        pass
