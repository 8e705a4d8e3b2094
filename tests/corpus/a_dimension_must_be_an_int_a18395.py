# fuzz: runtime_outputs: module: module constant K_NEW = pl.FP16, used in orch_outputs
# expect: 10:46: error: a dimension must be an int or pl.dynamic(...), got a dtype (pl.FP16)
import nanopass.dsl as pl
K_NEW = pl.FP16

@pl.program
class RuntimeOutputs:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_outputs(self, x: pl.Tensor[[16, K_NEW], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass
