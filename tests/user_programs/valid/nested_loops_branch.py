# Nested loops (a parallel fan inside a sequential loop) with a branch on the loop indices, each
# branch updating its own row block; a final task reads the whole tensor.
import nanopass.dsl as pl


@pl.program
class NestedLoops:
    @pl.function(type=pl.FunctionType.AIV)
    def inc(self, src: pl.Tensor[[8, 16], pl.FP32],
            dst: pl.InOut[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def dec(self, dst: pl.InOut[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def sum_all(self, src: pl.Tensor[[32, 16], pl.FP32],
                dst: pl.Out[pl.Tensor[[1, 16], pl.FP32]]) -> pl.Tensor[[1, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[8, 16], pl.FP32], grid: pl.InOut[pl.Tensor[[32, 16], pl.FP32]],
            total: pl.Out[pl.Tensor[[1, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[1, 16], pl.FP32]:
        for step in pl.range(n):
            for b in pl.parallel(4):
                row = pl.slice(grid, [8, 16], [b * 8, 0])
                if (step + b) % 2 == 0:
                    row = self.inc(x, row)
                else:
                    row = self.dec(row)
        total = self.sum_all(grid, total)
        return total
