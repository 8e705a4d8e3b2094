# reference-surface.md section 10: a kernel call used as an expression (nested, in return), and a view as a task argument.
import nanopass.dsl as pl


@pl.program
class Nested:
    @pl.function(type=pl.FunctionType.AIV)
    def twice(self, src: pl.Tensor[[16, 16], pl.FP32],
              dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], big: pl.Tensor[[32, 16], pl.FP32],
            y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
        tmp = self.twice(pl.slice(big, [16, 16], [16, 0]), tmp)
        return self.twice(self.twice(x, tmp), y)
