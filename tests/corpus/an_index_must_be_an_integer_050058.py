# fuzz: tensor_ops: replace: replace '1' by '2.5'; drop: drop 'r: pl.Tensor[[16, 64], pl.FP32] = pl.store(pl.mul(t, fact...'
# expect: 10:33: error: an index must be an integer, got pl.Scalar[pl.FP32]
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self, flags: pl.InOut[pl.Tensor[[4], pl.INT32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        pl.tensor.write(flags, [2.5], first + 1)
