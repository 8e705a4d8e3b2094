# fuzz: graph_features: rename: rename one ids -> acc; block: wrap 3 statement(s) in 'with pl.manual_scope():'
# expect: 16:69: error: deps= entries arr[i] need a TaskId array
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.AIV)
    def k_copy(self, src: pl.Tensor[[64, 64], pl.FP32], dst: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, acc: pl.InOut[pl.Tensor[[64, 64], pl.FP32]], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[64, 64], pl.FP32]:
        last = None
        if n > 2:
            out, fin = pl.submit(self.k_copy, acc, out, deps=[last, acc[0]])
