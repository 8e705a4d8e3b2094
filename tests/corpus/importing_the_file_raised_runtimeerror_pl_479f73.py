# fuzz: graph_features: move: move 'out, fin = pl.submit(self.k_copy, a, out, deps=[])'; replace: replace '64' by 'pl.create_tensor([16, 16], dtype=pl.FP32)'
# expect: 7:38: error: importing the file raised RuntimeError: pl.create_tensor is DSL syntax: it is compiled, not called from Python
import nanopass.dsl as pl

class GraphFeatures:

    def orch(self) -> pl.Tensor[[64, pl.create_tensor([16, 16], dtype=pl.FP32)], pl.FP32]:
        pass
