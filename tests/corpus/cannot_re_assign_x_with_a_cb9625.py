# fuzz: basic: unsupported: insert 'x = None'
# expect: 11:9: error: cannot re-assign 'x' with a different type: was pl.Scalar[pl.TASK_ID], got pl.Scalar[pl.INDEX]
import nanopass.dsl as pl

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self) -> pl.Tensor[[16, 16], pl.FP32]:
        x = None
        x = 1
