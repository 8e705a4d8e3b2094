# fuzz: tensor_ops: dtype: dtype FP32 -> UINT16; shape: shape [64, 16] -> [16]
# expect: 10:9: error: type annotation of 'factor' has dtype FP32 but the value has UINT16
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self, table: pl.Tensor[[64, 64], pl.UINT16]) -> pl.Tensor[[16], pl.FP32]:
        factor: pl.Scalar[pl.FP32] = pl.tensor.read(table, [0, 0])
