# fuzz: runtime_outputs: unsupported: insert 'x = pl'
# expect: 10:13: error: 'pl' is a module ('nanopass.dsl'); only int, float and bool values can be used here
import nanopass.dsl as pl

@pl.program
class RuntimeOutputs:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_outputs(self) -> pl.Tensor[[16, 16], pl.FP32]:
        x = pl
