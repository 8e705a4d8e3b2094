# reference-surface.md section 13: tuple[...] return annotations (a kernel and the orchestration function return two tensors).
import nanopass.dsl as pl


@pl.program
class Pair:
    @pl.function(type=pl.FunctionType.AIV)
    def split(self, src: pl.Tensor[[16, 16], pl.FP32], lo: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
              hi: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        t = pl.load(src, [0, 0], [16, 16])
        lo = pl.store(t, [0, 0], lo)
        hi = pl.store(t, [0, 0], hi)
        return lo, hi

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], a: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
            b: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        a, b = self.split(x, a, b)
        b, a = self.split(a, b, a)
        return a, b
