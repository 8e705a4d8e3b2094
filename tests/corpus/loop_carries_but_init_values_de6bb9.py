# fuzz: basic: unsupported: insert 'for i, (p, q) in pl.range(2, init_values=(a,)):'
# expect: 10:50: error: 2 loop carries but 1 init values
import nanopass.dsl as pl

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self) -> pl.Tensor[[16, 16], pl.FP32]:
        for i, (p, q) in pl.range(2, init_values=(a,)):
            pass
