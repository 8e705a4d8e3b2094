# fuzz: fence_array_carry: module: module constant K_NEW = [16, 16], used in orch_carry; duplicate: duplicate 'nxt[phase] = t'
# expect: 11:33: error: 'K_NEW' is a list; a constant number is needed here
import nanopass.dsl as pl
K_NEW = [16, 16]

@pl.program
class FenceArrayCarry:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_carry(self) -> pl.Tensor[[16, 16], pl.FP32]:
        first = pl.array.create(K_NEW, pl.TASK_ID)
