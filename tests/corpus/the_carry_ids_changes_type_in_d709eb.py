# fuzz: fence_array_carry: duplicate: duplicate 'nxt = pl.array.create(8, pl.TASK_ID)'; replace: replace 'nxt' by '2.5'
# expect: 12:33: error: the carry 'ids' changes type in the loop: pl.Array[8, pl.TASK_ID] before, pl.Scalar[pl.FP32] yielded
import nanopass.dsl as pl

@pl.program
class FenceArrayCarry:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_carry(self) -> pl.Tensor[[16, 16], pl.FP32]:
        first = pl.array.create(8, pl.TASK_ID)
        for phase, (ids,) in pl.range(8, init_values=(first,)):
            out_ids = pl.yield_(2.5)
