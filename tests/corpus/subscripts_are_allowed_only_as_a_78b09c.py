# fuzz: scope_escape: shape: shape [16, 16] -> [1, 16, 16]; replace: replace 'x' by 'a[0]'
# expect: 14:40: error: subscripts are allowed only as a whole right-hand side (x = t[i, j]); assign them to a name first
import nanopass.dsl as pl

@pl.program
class ScopeEscape:

    @pl.function(type=pl.FunctionType.AIV)
    def make(self, x: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def orch_escape(self) -> pl.Tensor[[16, 16], pl.FP32]:
        tmp, t1 = pl.submit(self.make, a[0], tmp)
