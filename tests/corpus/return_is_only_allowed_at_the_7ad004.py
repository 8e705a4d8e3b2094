# fuzz: basic: swap: swap arguments 2 and 1 of 'self.kernel_add(a, c, b)'; block: wrap 1 statement(s) in 'for i in pl.range(2):'
# expect: 11:13: error: return is only allowed at the end of the orchestration function
import nanopass.dsl as pl

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.range(2):
            return d
