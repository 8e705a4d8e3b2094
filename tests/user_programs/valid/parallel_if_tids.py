# In a manual scope, a parallel loop whose branches submit one of two kernels depending on the
# index, each storing its TaskId in an array slot; a join waits for every slot.
import nanopass.dsl as pl


@pl.program
class ParallelIfTids:
    @pl.function(type=pl.FunctionType.AIV)
    def even(self, dst: pl.InOut[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def odd(self, dst: pl.InOut[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def join(self, src: pl.Tensor[[32, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, grid: pl.InOut[pl.Tensor[[32, 16], pl.FP32]], out: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        with pl.manual_scope():
            ids = pl.array.create(4, pl.TASK_ID)
            for i in pl.parallel(4):
                row = pl.slice(grid, [8, 16], [i * 8, 0])
                if i % 2 == 0:
                    row, t = pl.submit(self.even, row)
                else:
                    row, t = pl.submit(self.odd, row)
                ids[i] = t
            out, tj = pl.submit(self.join, grid, out, deps=[ids])
        return out
