# fuzz: tensor_ops: indent: tab on line 32; unsupported: insert 'x: int'
# expect: 10:9: error: a declaration needs a value: x: T = ...
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self) -> pl.Tensor[[64, 16], pl.FP32]:
        x: int
