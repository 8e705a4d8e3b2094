# fuzz: fence_array_carry: duplicate: duplicate 'return y'; drop: drop 'out_ids = pl.yield_(nxt)'
# expect: 12:13: error: a loop with init_values must end with an assignment from pl.yield_(...)
import nanopass.dsl as pl

@pl.program
class FenceArrayCarry:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_carry(self) -> pl.Tensor[[16, 16], pl.FP32]:
        first = pl.array.create(8, pl.TASK_ID)
        for phase, (ids,) in pl.range(8, init_values=(first,)):
            pass
