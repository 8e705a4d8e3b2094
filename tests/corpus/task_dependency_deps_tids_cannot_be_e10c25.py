# fuzz: fence_not_profitable: swap: swap parameters y and x of orch_small; move: move 'y, u = pl.submit(self.work, x, y, deps=[tids])'
# expect: 16:49: error: task dependency deps=[tids] cannot be honored: its TaskId is produced at line 15, inside a scope that has already closed here, so the ordering edge would be lost
import nanopass.dsl as pl

@pl.program
class FenceNotProfitable:

    @pl.function(type=pl.FunctionType.AIV)
    def work(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_small(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(2, pl.TASK_ID)
        y, u = pl.submit(self.work, x, y, deps=[tids])
        return y
