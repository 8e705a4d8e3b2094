# fuzz: graph_features: block: wrap 1 statement(s) in 'with pl.scope():'
# expect: 10:9: error: a hand-placed AUTO 'with pl.scope()' requires @pl.function(auto_scope=False)
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.scope():
            pass
