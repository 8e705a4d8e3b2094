# fuzz: basic: replace: replace 'self.kernel_add(a, b, c)' by 'a[0]'
# expect: 10:13: error: reading an element of a rank-2 tensor needs 2 indices
import nanopass.dsl as pl

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        c = a[0]
