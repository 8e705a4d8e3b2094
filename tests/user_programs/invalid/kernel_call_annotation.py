# A kernel call's result annotated with another shape: fill returns a [16, 16] tensor, not [4, 4]
# (was: accepted, the annotation unchecked; r: T = pl.submit(...)'s was checked).
# expect: 20:16: error: type annotation of 'r' is 'pl.Tensor[[4, 4], pl.FP32]', but 'r' holds the result of kernel 'fill'
# where: the annotation after "r: "
import nanopass.dsl as pl


@pl.program
class KernelCallAnnotation:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32],
             mid: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            r: pl.Tensor[[4, 4], pl.FP32] = self.fill(x, mid)
            out = self.fill(r, out)
        return out
