# fuzz: tid_sources: block: unwrap 'for i in pl.range(n):'; replace: replace 'pl.INT64' by 'pl.FP32'
# expect: 10:12: error: cannot compare FP32 with INDEX
import nanopass.dsl as pl

@pl.program
class TidSources:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tids(self, n: pl.Scalar[pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        if n > 3:
            pass
