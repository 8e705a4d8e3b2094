# fuzz: graph_features: rename: rename parameter a -> x__ssa_v1 everywhere
# expect: 9:20: error: 'x__ssa_v1': names containing '__' are reserved for the compiler's variable versions
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x__ssa_v1: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 64], pl.FP32]:
        pass
