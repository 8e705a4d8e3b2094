# fuzz: basic: unsupported: insert 'x = a[0:1]'; rename: rename one c -> pl
# expect: 10:13: error: slice subscripts of tensors are not supported; use pl.tensor.slice
import nanopass.dsl as pl

@pl.program
class Basic:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self, a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        x = a[0:1]
