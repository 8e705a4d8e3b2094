# fuzz: fence_array_updated: move: move 'tids = pl.array.create(8, pl.TASK_ID)'; module: module constant K_NEW = lambda: 3, used in orch_updated
# expect: 10:42: error: a dimension must be an int or pl.dynamic(...), got a function ('<lambda>')
import nanopass.dsl as pl
K_NEW = lambda: 3

@pl.program
class FenceArrayUpdated:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_updated(self, x: pl.Tensor[[K_NEW, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass
