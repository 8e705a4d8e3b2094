# fuzz: basic: unsupported: insert 'x = pl.assemble(a, a, [0])'
# expect: 10:13: error: pl.assemble needs a source and an offset of the target's rank
import nanopass.dsl as pl

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        x = pl.assemble(a, a, [0])
