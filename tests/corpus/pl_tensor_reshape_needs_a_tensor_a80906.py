# fuzz: tensor_ops: duplicate: duplicate 'pl.tensor.write(flags, [2], rows)'; module: module constant K_NEW = -4, used in orch_tensor_ops
# expect: 11:34: error: pl.tensor.reshape needs a tensor variable, got 'K_NEW'
import nanopass.dsl as pl
K_NEW = -4

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self) -> pl.Tensor[[64, 16], pl.FP32]:
        flat = pl.tensor.reshape(K_NEW, [64, 16])
