# fuzz: phase_fence: drop: drop 'for j in pl.parallel(64):'; rename: rename one i -> tids
# expect: 12:18: error: an array index must be an integer
import nanopass.dsl as pl

@pl.program
class PhaseFence:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_fence(self) -> pl.Tensor[[64, 64], pl.FP32]:
        tids = pl.array.create(64, pl.TASK_ID)
        for i in pl.parallel(64):
            tids[tids] = t
