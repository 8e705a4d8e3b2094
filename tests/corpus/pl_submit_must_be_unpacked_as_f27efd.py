# fuzz: fence_not_profitable: shape: shape (y, t) -> (y,)
# expect: 14:9: error: pl.submit must be unpacked as exactly 2 targets (results, task_id), got 1
import nanopass.dsl as pl

@pl.program
class FenceNotProfitable:

    @pl.function(type=pl.FunctionType.AIV)
    def work(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_small(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        y, = pl.submit(self.work, x, y)
