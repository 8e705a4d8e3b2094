# An inline function that calls itself.
# expect: 18:15: error: inline function 'again' calls itself
# where: the recursive call
import nanopass.dsl as pl


@pl.program
class InlineRecursion:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def again(self, src: pl.Tensor[[16, 16], pl.FP32],
              dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        dst = self.step(src, dst)
        dst = self.again(src, dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32],
            y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.again(x, y)
        return y
