# pl.parallel with init_values: each iteration writes its own row block of the carried tensor
# through pl.tensor.slice; the result is read after the loop.
import nanopass.dsl as pl


@pl.program
class ParallelCarry:
    @pl.function(type=pl.FunctionType.AIV)
    def fill_row(self, src: pl.Tensor[[8, 32], pl.FP32],
                 dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [8, 32])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def total(self, src: pl.Tensor[[32, 32], pl.FP32],
              dst: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[8, 32], pl.FP32], buf: pl.InOut[pl.Tensor[[32, 32], pl.FP32]],
            out: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        for i, (acc,) in pl.parallel(4, init_values=(buf,)):
            row = pl.tensor.slice(acc, [8, 32], [i * 8, 0])
            row = self.fill_row(x, row)
            res = pl.yield_(acc)
        out = self.total(res, out)
        return out
