# fuzz: scope_escape: unsupported: insert 'n = n + 1.5'
# expect: 10:13: error: cannot mix INT64 and FP32 in arithmetic (int and float)
import nanopass.dsl as pl

@pl.program
class ScopeEscape:

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def orch_escape(self, n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        n = n + 1.5
