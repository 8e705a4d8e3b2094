# fuzz: tensor_ops: replace: replace 'pl.tensor.read' by '...'; module: module constant K_NEW = {}, used in orch_tensor_ops
# expect: 10:44: error: a shape must be a list of dimensions, like [16, 16]
import nanopass.dsl as pl
K_NEW = {}

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self) -> pl.Tensor[K_NEW, pl.FP32]:
        pass
