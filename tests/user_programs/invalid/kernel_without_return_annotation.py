# A kernel whose def has no "-> ..." annotation returns nothing to its caller, though its body
# returns dst: receiving a result from it is refused, with a hint to annotate it (with the type of
# the parameter its return names).
# expect: 19:9: error: has no return annotation, so it returns nothing to its caller: annotate it, def fill(...) -> pl.Tensor[[16, 16], pl.FP32]:
# where: the assignment
import nanopass.dsl as pl


@pl.program
class KernelWithoutReturnAnnotation:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        out = self.fill(x, out)
        return out
