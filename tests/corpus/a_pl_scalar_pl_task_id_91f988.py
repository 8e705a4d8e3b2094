# fuzz: tid_sources: rename: rename one tids -> snap; drop: drop 'if n > 3:'
# expect: 12:9: error: a pl.Scalar[pl.TASK_ID] cannot be assigned by index
import nanopass.dsl as pl

@pl.program
class TidSources:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tids(self) -> pl.Tensor[[16, 16], pl.FP32]:
        tids = pl.array.create(2, pl.TASK_ID)
        snap = tids[0]
        snap[0] = prev
