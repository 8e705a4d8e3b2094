# fuzz: phase_fence: rename: rename one t -> i; decorator: decorate consume with @staticmethod
# expect: 12:23: error: cannot store a pl.Scalar[pl.INDEX] in a pl.Array[64, pl.TASK_ID]
import nanopass.dsl as pl

@pl.program
class PhaseFence:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_fence(self) -> pl.Tensor[[64, 64], pl.FP32]:
        tids = pl.array.create(64, pl.TASK_ID)
        for i in pl.parallel(64):
            tids[i] = i
