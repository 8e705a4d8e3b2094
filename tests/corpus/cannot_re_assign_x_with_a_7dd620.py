# fuzz: scalars: unsupported: insert 'x = None'
# expect: 10:9: error: cannot re-assign 'x' with a different type: was pl.Tensor[[64, 64], pl.FP16], got pl.Scalar[pl.TASK_ID]
import nanopass.dsl as pl

@pl.program
class Scalars:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_scalars(self, x: pl.Tensor[[64, 64], pl.FP16]) -> pl.Tensor[[64, 64], pl.FP16]:
        x = None
