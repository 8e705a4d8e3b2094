# fuzz: tensor_ops: drop: drop 'scaled = self.scale_rows(top, factor, scaled)'; swap: swap arguments 1 and 0 of 'pl.tensor.dim(0, table)'
# expect: 10:30: error: pl.tensor.dim needs a tensor variable, got '0'
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self) -> pl.Tensor[[64, 16], pl.FP32]:
        rows = pl.tensor.dim(0, table)
