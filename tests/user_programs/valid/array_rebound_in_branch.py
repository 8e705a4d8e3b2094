# In a manual scope, a loop over the rows of a grid in rounds of two: each row's task waits for the
# round before (the array of its TaskIds), a new round starts every other row (an if that binds the
# array name to a new pl.array), each task's TaskId goes in its round's slot, and a join waits for
# the last round (which waited for every round before it).
import nanopass.dsl as pl


@pl.program
class ArrayReboundInBranch:
    @pl.function(type=pl.FunctionType.AIV)
    def scale(self, dst: pl.InOut[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def join(self, src: pl.Tensor[[32, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, grid: pl.InOut[pl.Tensor[[32, 16], pl.FP32]], out: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        with pl.manual_scope():
            ids = pl.array.create(2, pl.TASK_ID)
            for i in pl.range(4):
                row = pl.slice(grid, [8, 16], [i * 8, 0])
                row, t = pl.submit(self.scale, row, deps=[ids])
                if i % 2 == 0:
                    ids = pl.array.create(2, pl.TASK_ID)
                ids[i % 2] = t
            out, tj = pl.submit(self.join, grid, out, deps=[ids])
        return out
