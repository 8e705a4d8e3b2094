# fuzz: graph_features: dtype: dtype INT64 -> BF16; rename: rename one out -> acc
# expect: 9:20: error: scalar parameter 'n' of dtype BF16 cannot be passed to an orchestration function (no host C++ type)
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, n: pl.Scalar[pl.BF16]) -> pl.Tensor[[64, 64], pl.FP32]:
        pass
