# fuzz: fence_array_carry: shape: shape [ids] -> [0]
# expect: 14:49: error: 'work' deps= entries must be a TaskId variable, a TaskId array, arr[i] or None; got '0'
import nanopass.dsl as pl

@pl.program
class FenceArrayCarry:

    @pl.function(type=pl.FunctionType.AIV)
    def work(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_carry(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        y, t = pl.submit(self.work, x, y, deps=[0])
