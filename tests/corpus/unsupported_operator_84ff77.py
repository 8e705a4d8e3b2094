# fuzz: fence_array_updated: replace: replace '8' by 'n & 1'
# expect: 10:27: error: unsupported operator '&'
import nanopass.dsl as pl

@pl.program
class FenceArrayUpdated:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_updated(self) -> pl.Tensor[[16, 16], pl.FP32]:
        for j in pl.range(n & 1):
            pass
