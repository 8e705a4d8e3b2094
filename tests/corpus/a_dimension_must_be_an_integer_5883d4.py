# fuzz: return_order: shape: shape [8, 8] -> [8, 1.5]
# expect: 10:34: error: a dimension must be an integer, got pl.Scalar[pl.FP32]
import nanopass.dsl as pl

@pl.program
class ReturnOrder:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(self) -> pl.Tensor[[8, 8], pl.FP32]:
        y = pl.create_tensor([8, 1.5], dtype=pl.FP32)
