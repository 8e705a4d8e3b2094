# fuzz: derive_fallback: swap: swap arguments 2 and 0 of 'pl.tensor.write(1, [0], flags)'
# expect: 10:25: error: pl.tensor.write needs a tensor variable, got '1'
import nanopass.dsl as pl

@pl.program
class DeriveFallback:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_fallback(self) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.tensor.write(1, [0], flags)
