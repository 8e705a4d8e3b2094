# A Python print() call in the orchestration function (reference-surface.md has no host printing:
# refused, saying so; was "this expression has no effect as a statement").
# expect: 25:9: error: print(...) is host printing, which is not part of orchestration code
# where: the call statement
import nanopass.dsl as pl


@pl.program
class PrintCall:
    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, src: pl.Tensor[[16, 16], pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def acc(self, src: pl.Tensor[[16, 16], pl.FP32], f: pl.Scalar[pl.FP32],
            dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        print("starting")
        out = self.copy(x, out)
        return out
