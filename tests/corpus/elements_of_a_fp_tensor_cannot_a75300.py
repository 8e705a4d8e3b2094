# fuzz: tensor_ops: dtype: dtype FP32 -> FP16; unsupported: insert 'class C:'
# expect: 10:38: error: elements of a FP16 tensor cannot be read on the host
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self, table: pl.Tensor[[64, 64], pl.FP16]) -> pl.Tensor[[64, 16], pl.FP32]:
        factor: pl.Scalar[pl.FP32] = pl.tensor.read(table, [0, 0])
