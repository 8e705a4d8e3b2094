# A kernel call nested inside a view nested inside a call: innermost first.
import nanopass.dsl as pl


@pl.program
class NestedViewCalls:
    @pl.function(type=pl.FunctionType.AIV)
    def make(self, src: pl.Tensor[[8, 32], pl.FP32],
             dst: pl.Out[pl.Tensor[[8, 32], pl.FP32]]) -> pl.Tensor[[8, 32], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def use(self, src: pl.Tensor[[16, 16], pl.FP32],
            dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[8, 32], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        tmp = pl.create_tensor([8, 32], dtype=pl.FP32)
        out = self.use(pl.reshape(self.make(x, tmp), [16, 16]), out)
        return out
