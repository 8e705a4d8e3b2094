# pl.unroll over three head blocks (the index a constant in each copy) and pl.pipeline with a stage
# count over a scalar bound.
import nanopass.dsl as pl


@pl.program
class UnrollPipeline:
    @pl.function(type=pl.FunctionType.AIV)
    def head(self, src: pl.Tensor[[48, 16], pl.FP32], h: pl.Scalar[pl.INT64],
             dst: pl.InOut[pl.Tensor[[48, 16], pl.FP32]]) -> pl.Tensor[[48, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[48, 16], pl.FP32], y: pl.InOut[pl.Tensor[[48, 16], pl.FP32]],
            n: pl.Scalar[pl.INT64]) -> pl.Tensor[[48, 16], pl.FP32]:
        for h in pl.unroll(3):
            y = self.head(x, h * 16, y)
        for k in pl.pipeline(n, stage=2):
            y = self.head(y, k, y)
        return y
