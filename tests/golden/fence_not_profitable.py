# A whole-array dependency that is not worth a phase fence: 2 producers and 1 consumer per
# iteration of a 2-trip loop: 2*2 - (2+2) = 0 < 1, so the consumers keep their array fan-out.
import nanopass.dsl as pl


@pl.program
class FenceNotProfitable:
    @pl.function(type=pl.FunctionType.AIV)
    def work(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_small(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(2, pl.TASK_ID)
            for i in pl.range(2):
                y, t = pl.submit(self.work, x, y)
                tids[i] = t
            for j in pl.range(2):
                y, u = pl.submit(self.work, x, y, deps=[tids])
        return y
