# fuzz: basic: unsupported: insert 'pl.yield_(a)'
# expect: 10:9: error: pl.yield_ must be assigned: a, b = pl.yield_(x, y)
import nanopass.dsl as pl

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self) -> pl.Tensor[[16, 16], pl.FP32]:
        pl.yield_(a)
