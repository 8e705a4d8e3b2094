# fuzz: derive_fallback: rename: rename flags -> y everywhere in orch_fallback
# expect: 10:28: error: pl.tensor.write of a rank-2 tensor needs 2 indices, got 1
import nanopass.dsl as pl

@pl.program
class DeriveFallback:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_fallback(self, y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.tensor.write(y, [0], 1)
