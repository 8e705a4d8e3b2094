# A TaskId array: one slot per branch filled in a parallel loop, then a second loop where each
# branch waits for its own slot (arr[i] = tid, deps=[arr[i]]); each branch owns a row block.
import nanopass.dsl as pl


@pl.program
class ArrayTids:
    @pl.function(type=pl.FunctionType.AIV)
    def part(self, src: pl.Tensor[[16, 16], pl.FP32], row: pl.Scalar[pl.INT64],
             dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[64, 16], pl.FP32], y: pl.InOut[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        with pl.manual_scope():
            ids = pl.array.create(4, pl.TASK_ID)
            for i in pl.parallel(4):
                blk = pl.slice(y, [16, 16], [i * 16, 0])
                blk, t = pl.submit(self.part, pl.slice(x, [16, 16], [i * 16, 0]), i, blk)
                ids[i] = t
            for i in pl.parallel(4):
                blk = pl.slice(y, [16, 16], [i * 16, 0])
                blk, u = pl.submit(self.part, blk, i, blk, deps=[ids[i]])
        return y
