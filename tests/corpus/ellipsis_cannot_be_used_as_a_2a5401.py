# fuzz: fence_not_profitable: replace: replace 'y' by '...'
# expect: 10:16: error: Ellipsis cannot be used as a value here
import nanopass.dsl as pl

@pl.program
class FenceNotProfitable:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_small(self) -> pl.Tensor[[16, 16], pl.FP32]:
        return ...
