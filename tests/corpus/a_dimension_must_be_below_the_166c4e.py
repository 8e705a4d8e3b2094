# fuzz: tensor_ops: move: move 'out = self.reduce_cols(flat, wide, out)'; shape: shape [64, 64] -> [64, 2 ** 70]
# expect: 9:53: error: a dimension must be below 2**32 (the runtime's extents are uint32_t), got 1180591620717411303424
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self, table: pl.Tensor[[64, 2 ** 70], pl.FP32]) -> pl.Tensor[[64, 16], pl.FP32]:
        pass
