# fuzz: graph_features: block: wrap 7 statement(s) in 'with pl.manual_scope():'
# expect: 11:13: error: a manual scope may not be nested inside another manual scope
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.manual_scope():
            with pl.manual_scope():
                pass
