# fuzz: tid_sources: unsupported: insert 'def f():'; dtype: dtype FP32 -> Tensor
# expect: 9:48: error: unknown dtype 'pl.Tensor'
import nanopass.dsl as pl

@pl.program
class TidSources:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tids(self) -> pl.Tensor[[16, 16], pl.Tensor]:
        pass
