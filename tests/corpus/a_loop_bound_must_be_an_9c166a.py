# fuzz: graph_features: dtype: dtype INT64 -> FP32
# expect: 10:27: error: a loop bound must be an integer, got pl.Scalar[pl.FP32]
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, n: pl.Scalar[pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        for j in pl.range(n):
            pass
