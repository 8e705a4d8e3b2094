# fuzz: phase_fence: module: module constant K_NEW = None, used in orch_fence
# expect: 10:44: error: a dimension must be an int or pl.dynamic(...), got None
import nanopass.dsl as pl
K_NEW = None

@pl.program
class PhaseFence:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_fence(self) -> pl.Tensor[[64, K_NEW], pl.FP32]:
        pass
