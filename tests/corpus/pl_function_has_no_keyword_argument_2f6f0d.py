# fuzz: graph_features: rename: rename one acc -> j; decorator: decorate orch with @pl.function(kind=pl.FunctionType.AIV)
# expect: 8:23: error: @pl.function has no keyword argument 'kind'
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(kind=pl.FunctionType.AIV)
    def orch(self) -> pl.Tensor[[64, 64], pl.FP32]:
        pass
