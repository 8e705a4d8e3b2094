# fuzz: derive_fallback: unsupported: insert 'x = pl.tensor.transpose(a, 0, 0)'
# expect: 10:33: error: undefined variable 'a'
import nanopass.dsl as pl

@pl.program
class DeriveFallback:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_fallback(self) -> pl.Tensor[[16, 16], pl.FP32]:
        x = pl.tensor.transpose(a, 0, 0)
