# fuzz: tensor_ops: swap: swap arguments 0 and 1 of 'pl.tensor.transpose(0, big, 1)'
# expect: 10:36: error: pl.tensor.transpose needs a tensor variable, got '0'
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self) -> pl.Tensor[[64, 16], pl.FP32]:
        wide = pl.tensor.transpose(0, big, 1)
