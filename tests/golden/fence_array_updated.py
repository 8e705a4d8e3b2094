# No phase fence when the array is updated in the loop: each consumer also overwrites a slot,
# so the dependency is a same-carrier chain, not a snapshot a barrier before the loop could take.
import nanopass.dsl as pl


@pl.program
class FenceArrayUpdated:
    @pl.function(type=pl.FunctionType.AIV)
    def work(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_updated(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(8, pl.TASK_ID)
            for i in pl.range(8):
                y, t = pl.submit(self.work, x, y)
                tids[i] = t
            for j in pl.range(8):
                y, u = pl.submit(self.work, x, y, deps=[tids])
                tids[j] = u
        return y
