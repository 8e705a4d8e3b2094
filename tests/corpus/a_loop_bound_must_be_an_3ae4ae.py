# fuzz: graph_features: rename: rename n -> acc everywhere in orch
# expect: 10:27: error: a loop bound must be an integer, got pl.Tensor[[64, 64], pl.FP32]
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, acc: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        for j in pl.range(acc):
            pass
