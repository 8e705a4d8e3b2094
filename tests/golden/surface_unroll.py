# reference-surface.md section 14: for ... in pl.unroll(...) (the body once per iteration) and pl.pipeline(..., stage=k).
import nanopass.dsl as pl


@pl.program
class Unroll:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[16, 16], pl.FP32], k: pl.Scalar[pl.INT64],
             dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INT64],
            acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        for i in pl.unroll(3):
            col = pl.slice(x, [16, 16], [0, i * 16])
            acc = self.step(col, i, acc)
        last = pl.slice(x, [16, 16], [0, 48])
        for j in pl.pipeline(n, stage=2):
            acc = self.step(last, j, acc)
        return acc
