# fuzz: fence_array_updated: dtype: dtype FP32 -> FP64
# expect: 9:51: error: the runtime has no tensor dtype for FP64
import nanopass.dsl as pl

@pl.program
class FenceArrayUpdated:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_updated(self) -> pl.Tensor[[16, 16], pl.FP64]:
        pass
