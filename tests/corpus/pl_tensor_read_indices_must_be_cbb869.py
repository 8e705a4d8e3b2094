# fuzz: tensor_ops: module: module constant K_NEW = pl.FP16, used in orch_tensor_ops
# expect: 10:60: error: undefined variable 'K_NEW'
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self, table: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 16], pl.FP32]:
        factor: pl.Scalar[pl.FP32] = pl.tensor.read(table, K_NEW)
