# Phase-fence compression: 64 producers fill a TaskId array in a manual scope, then 64 consumers
# each depend on the whole array. 64*64 = 4096 dependency insertions become 64 + 64 = 128 through
# one dummy barrier placed before the consumer loop.
import nanopass.dsl as pl


@pl.program
class PhaseFence:
    @pl.function(type=pl.FunctionType.AIV)
    def produce(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        i: pl.Scalar[pl.INT64],
        out: pl.InOut[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def consume(
        self,
        src: pl.Tensor[[64, 64], pl.FP32],
        j: pl.Scalar[pl.INT64],
        y: pl.InOut[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_fence(
        self,
        x: pl.Tensor[[64, 64], pl.FP32],
        out: pl.InOut[pl.Tensor[[64, 64], pl.FP32]],
        y: pl.InOut[pl.Tensor[[64, 64], pl.FP32]],
    ) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(64, pl.TASK_ID)
            for i in pl.parallel(64):
                out, t = pl.submit(self.produce, x, i, out)
                tids[i] = t
            for j in pl.parallel(64):
                y, u = pl.submit(self.consume, out, j, y, deps=[tids])
        return y
