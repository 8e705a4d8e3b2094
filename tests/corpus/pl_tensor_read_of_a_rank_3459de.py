# fuzz: derive_fallback: duplicate: duplicate 'y = self.step(x, y)'; shape: shape [0, 0] -> [0]
# expect: 10:35: error: pl.tensor.read of a rank-2 tensor needs 2 indices, got 1
import nanopass.dsl as pl

@pl.program
class DeriveFallback:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_fallback(self, y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        first = pl.tensor.read(y, [0])
