# A single-name pl.submit annotated with its result's type: r binds the whole tuple (result,
# TaskId) (reference-surface.md section 1), so the annotation is wrong (was: accepted unchecked).
# expect: 20:16: error: type annotation of 'r' is 'pl.Tensor[[16, 16], pl.FP32]', but 'r' holds the whole tuple
# where: the annotation after "r: "
import nanopass.dsl as pl


@pl.program
class SubmitSingleNameAnnotation:
    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32],
             mid: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
             out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            r: pl.Tensor[[16, 16], pl.FP32] = pl.submit(self.fill, x, mid)
            out, t = pl.submit(self.fill, r[0], out, deps=[r[1]])
        return out
