# reference-surface.md section 12: pl.const(value, dtype), a typed scalar literal.
import nanopass.dsl as pl


@pl.program
class Const:
    @pl.function(type=pl.FunctionType.AIV)
    def axpy(self, src: pl.Tensor[[16, 16], pl.FP32], alpha: pl.Scalar[pl.FP32],
             dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(src, [0, 0], [16, 16])
        dst = pl.store(t, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, inp: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INT32],
            out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        if n > pl.const(2, pl.INT32):
            out = self.axpy(inp, pl.const(0.5, pl.FP32), out)
        limit = pl.const(7, pl.INT64)
        if n < limit:
            out = self.axpy(inp, pl.const(2, pl.FP32), out)
        return out
