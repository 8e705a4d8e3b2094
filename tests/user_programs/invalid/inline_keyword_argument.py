# An inline function called with a parameter named: the DSL passes arguments by position.
# expect: 24:31: error: 'dst' is its parameter 2, pass it by position
# where: the keyword's value
import nanopass.dsl as pl


@pl.program
class InlineKeyword:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Inline)
    def again(self, src: pl.Tensor[[16, 16], pl.FP32],
              dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        dst = self.step(src, dst)
        dst = self.step(src, dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32],
            y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.again(x, dst=y)
        return y
