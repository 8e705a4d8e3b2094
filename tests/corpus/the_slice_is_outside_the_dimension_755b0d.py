# fuzz: graph_features: unsupported: insert 'x = pl.tensor.slice(a, [1, 1], [99, 99])'
# expect: 10:33: error: the slice [99, 100) is outside the dimension of extent 64
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        x = pl.tensor.slice(a, [1, 1], [99, 99])
