# fuzz: loop_scalar: shape: shape [64, 64] -> [16]
# expect: 10:16: error: 'orch_loop' returns a pl.Tensor[[64, 64], pl.FP32] where its return type declares pl.Tensor[[16], pl.FP32]
import nanopass.dsl as pl

@pl.program
class LoopScalar:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_loop(self, y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[16], pl.FP32]:
        return y
