# fuzz: fence_not_profitable: drop: drop 'return y'; rename: rename one t -> y
# expect: 12:23: error: cannot store a pl.Tensor[[16, 16], pl.FP32] in a pl.Array[2, pl.TASK_ID]
import nanopass.dsl as pl

@pl.program
class FenceNotProfitable:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_small(self, y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        tids = pl.array.create(2, pl.TASK_ID)
        for i in pl.range(2):
            tids[i] = y
