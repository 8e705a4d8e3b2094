# fuzz: tensor_ops: block: wrap 2 statement(s) in 'with pl.scope():'; dtype: dtype FP32 -> UINT8
# expect: 12:32: error: pl.assemble needs a source of the target's dtype
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self) -> pl.Tensor[[64, 16], pl.FP32]:
        big = pl.create_tensor([64, 64], dtype=pl.UINT8)
        scaled = pl.create_tensor([16, 64], dtype=pl.FP32)
        big = pl.assemble(big, scaled, [16, 0])
