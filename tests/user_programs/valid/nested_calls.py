# A kernel call used as another call's argument and as the returned value.
import nanopass.dsl as pl


@pl.program
class NestedCalls:
    @pl.function(type=pl.FunctionType.AIV)
    def twice(self, src: pl.Tensor[[16, 16], pl.FP32],
              dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(pl.add(t, t), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32],
            y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
        return self.twice(self.twice(x, tmp), y)
