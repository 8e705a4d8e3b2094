# fuzz: fence_array_updated: duplicate: duplicate 'tids[i] = t'; unsupported: insert 'pl.tensor.write(a, [0], 1)'
# expect: 19:18: error: 'i' is not visible here: it was defined inside the loop at line 17
import nanopass.dsl as pl

@pl.program
class FenceArrayUpdated:

    @pl.function(type=pl.FunctionType.AIV)
    def work(self) -> pl.Tensor[[16, 16], pl.FP32]:
        return y
        pl.tensor.write(a, [0], 1)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_updated(self) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(8, pl.TASK_ID)
            for i in pl.range(8):
                pass
            tids[i] = t
