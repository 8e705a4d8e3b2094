# fuzz: graph_features: unsupported: insert 'pl.submit(self.k, a)'; block: unwrap 'for j in pl.range(n):'
# expect: 10:9: error: pl.submit(...) must be unpacked: out, tid = pl.submit(...)
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self) -> pl.Tensor[[64, 64], pl.FP32]:
        pl.submit(self.k, a)
