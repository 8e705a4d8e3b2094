# Manual scope: TaskId arrays filled in a loop, a whole-array fence, slot deps, a dummy barrier.
import nanopass.dsl as pl

N = 4


@pl.program
class ManualArrays:
    @pl.function(type=pl.FunctionType.AIV)
    def k_row(
        self,
        src: pl.Tensor[[64, 16], pl.FP32],
        dst: pl.InOut[pl.Tensor[[64, 16], pl.FP32]],
        row: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        t: pl.Tile[[16, 16], pl.FP32] = pl.load(src, [row, 0], [16, 16])
        o: pl.Tensor[[64, 16], pl.FP32] = pl.store(t, [row, 0], dst)
        return o

    @pl.function(type=pl.FunctionType.AIC)
    def k_sum(
        self,
        src: pl.Tensor[[64, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        t: pl.Tile[[64, 16], pl.FP32] = pl.load(src, [0, 0], [64, 16])
        o: pl.Tensor[[64, 16], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_arrays(
        self,
        src: pl.Tensor[[64, 16], pl.FP32],
        mid: pl.InOut[pl.Tensor[[64, 16], pl.FP32]],
        out: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
        k: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[64, 16], pl.FP32]:
        with pl.manual_scope():
            tids = pl.array.create(N, pl.TASK_ID)
            for i in pl.range(N):
                mid, t = pl.submit(self.k_row, src, mid, i * 16, deps=[tids])
                tids[i] = t
            fence = pl.system.task_dummy(deps=[tids])
            out, last = pl.submit(self.k_sum, mid, out, deps=[fence])
            if k > 2:
                mid, t2 = pl.submit(self.k_row, out, mid, 0, deps=[last, tids[0]])
            else:
                mid, t2 = pl.submit(self.k_row, src, mid, 16, deps=[last])
            none = pl.system.task_dummy(deps=[None])
            mid, t3 = pl.submit(self.k_row, src, mid, 32, deps=[t2, none])
        return out
