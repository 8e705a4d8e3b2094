# fuzz: basic: drop: drop 'return d'; unsupported: insert 'x = pl.tensor.transpose(a, 0, 0)'
# expect: 10:13: error: pl.tensor.transpose needs two different axes
import nanopass.dsl as pl

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        x = pl.tensor.transpose(a, 0, 0)
