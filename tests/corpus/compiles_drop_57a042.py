# fuzz: fence_array_updated: drop: drop 'with pl.manual_scope():'
# expect: compiles
import nanopass.dsl as pl

@pl.program
class FenceArrayUpdated:

    @pl.function(type=pl.FunctionType.AIV)
    def work(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_updated(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return y
