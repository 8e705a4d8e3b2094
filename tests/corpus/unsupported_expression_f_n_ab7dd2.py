# fuzz: graph_features: duplicate: duplicate 'for j in pl.range(n):'; replace: replace 'self.k_copy(a, tmp)' by 'f'{n}''
# expect: 10:15: error: unsupported expression "f'{n}'"
import nanopass.dsl as pl

@pl.program
class GraphFeatures:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self) -> pl.Tensor[[64, 64], pl.FP32]:
        tmp = f'{n}'
