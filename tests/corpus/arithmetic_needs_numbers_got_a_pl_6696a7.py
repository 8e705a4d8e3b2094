# fuzz: scalars: drop: drop 'return y'; dtype: dtype INT32 -> BOOL
# expect: 10:16: error: arithmetic needs numbers, got a pl.Scalar[pl.BOOL]
import nanopass.dsl as pl

@pl.program
class Scalars:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_scalars(self, count: pl.Scalar[pl.BOOL]) -> pl.Tensor[[64, 64], pl.FP16]:
        last = count - 1
