# fuzz: graph_features: unsupported: insert 'with open('f') as g:'
# expect: 10:27: error: 'with ... as' is not supported for scopes
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self) -> pl.Tensor[[64, 64], pl.FP32]:
        with open('f') as g:
            pass
