# fuzz: tensor_ops: block: wrap 1 statement(s) in 'for i in pl.range(2):'
# expect: compiles
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self, out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        big = pl.create_tensor([64, 64], dtype=pl.FP32)
        scaled = pl.create_tensor([16, 64], dtype=pl.FP32)
        for i in pl.range(2):
            big = pl.assemble(big, scaled, [16, 0])
        v = pl.tensor.read(big, [0, 0])
        pl.tensor.write(out, [0, 0], v)
        return out
