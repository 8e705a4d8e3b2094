# fuzz: tensor_ops: rename: rename one rows -> self
# expect: 10:9: error: 'self' cannot be used as a variable name
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self, table: pl.Tensor[[64, 64], pl.FP32]) -> pl.Tensor[[64, 16], pl.FP32]:
        self = pl.tensor.dim(table, 0)
