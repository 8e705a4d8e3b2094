# fuzz: fence_not_profitable: module: module constant K_NEW = pl.Tensor[[16, 16], pl.FP32], used in orch_small; rename: rename one u -> None_
# expect: 11:32: error: 'K_NEW' is a type (pl.Tensor[[16, 16], pl.FP32]); a constant number is needed here
import nanopass.dsl as pl
K_NEW = pl.Tensor[[16, 16], pl.FP32]

@pl.program
class FenceNotProfitable:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_small(self) -> pl.Tensor[[16, 16], pl.FP32]:
        tids = pl.array.create(K_NEW, pl.TASK_ID)
