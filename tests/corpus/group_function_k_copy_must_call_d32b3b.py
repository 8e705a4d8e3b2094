# fuzz: graph_features: decorator: decorate k_copy with @pl.function(type=pl.FunctionType.Group)
# expect: 9:5: error: Group function 'k_copy' must call an AIV kernel (and optionally an AIC kernel)
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Group)
    def k_copy(self) -> pl.Tensor[[64, 64], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        return out
