# fuzz: graph_features: swap: swap arguments 0 and 1 of 'self.k_acc(acc, tmp)'; replace: replace '64' by 'not n'
# expect: 10:63: error: 'not' needs a bool (a comparison)
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, n: pl.Scalar[pl.INT64]) -> pl.Tensor[[64, 64], pl.FP32]:
        tmp: pl.Tensor[[64, 64], pl.FP32] = pl.create_tensor([not n, 64], dtype=pl.FP32)
