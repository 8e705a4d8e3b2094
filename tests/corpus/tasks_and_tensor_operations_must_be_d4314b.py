# fuzz: tensor_ops: move: move 'factor: pl.Scalar[pl.FP32] = pl.tensor.read(table, [0, 0])'; replace: replace 'flags' by 'pl.tensor.dim(a, 5)'
# expect: 10:25: error: tasks and tensor operations must be assigned to a name, not used inside an expression
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self) -> pl.Tensor[[64, 16], pl.FP32]:
        pl.tensor.write(pl.tensor.dim(a, 5), [2], rows)
