# fuzz: phase_fence: module: module constant K_NEW = 1.5, used in orch_fence; indent: indent line 23
# expect: 15:45: error: parameter 'j' of 'consume' is a pl.Scalar[pl.INT64] but the argument is a pl.Scalar[pl.FP32]
import nanopass.dsl as pl
K_NEW = 1.5

@pl.program
class PhaseFence:

    @pl.function(type=pl.FunctionType.AIV)
    def consume(self, src: pl.Tensor[[64, 64], pl.FP32], j: pl.Scalar[pl.INT64], y: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_fence(self, out: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
        y, u = pl.submit(self.consume, out, K_NEW, y, deps=[tids])
