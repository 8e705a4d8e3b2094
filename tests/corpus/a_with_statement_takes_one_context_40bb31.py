# fuzz: graph_features: unsupported: insert 'with pl.manual_scope(), pl.scope():'; indent: empty the block of line 21
# expect: 10:9: error: a with statement takes one context manager
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self) -> pl.Tensor[[64, 64], pl.FP32]:
        with pl.manual_scope(), pl.scope():
            pass
