# fuzz: derive_fallback: swap: swap arguments 1 and 2 of 'pl.tensor.write(flags, 1, [0])'; duplicate: duplicate 'return y'
# expect: 10:35: error: unsupported expression '[0]'
import nanopass.dsl as pl

@pl.program
class DeriveFallback:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_fallback(self, flags: pl.InOut[pl.Tensor[[4], pl.INT32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.tensor.write(flags, 1, [0])
