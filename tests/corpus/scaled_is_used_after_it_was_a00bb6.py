# fuzz: tensor_ops: duplicate: duplicate 'scaled = self.scale_rows(top, factor, scaled)'
# expect: 18:9: error: 'scaled' is used after it was assembled into 'big'
import nanopass.dsl as pl

@pl.program
class TensorOps:

    @pl.function(type=pl.FunctionType.AIV)
    def scale_rows(self, src: pl.Tensor[[16, 64], pl.FP32], factor: pl.Scalar[pl.FP32], dst: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_tensor_ops(self, table: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 16], pl.FP32]]) -> pl.Tensor[[64, 16], pl.FP32]:
        factor: pl.Scalar[pl.FP32] = pl.tensor.read(table, [0, 0])
        top = pl.tensor.slice(table, [16, 64], [16, 0])
        big = pl.create_tensor([64, 64], dtype=pl.FP32)
        scaled = pl.create_tensor([16, 64], dtype=pl.FP32)
        big = pl.assemble(big, scaled, [16, 0])
        scaled = self.scale_rows(top, factor, scaled)
        v = pl.tensor.read(big, [16, 0])
        pl.tensor.write(out, [0, 0], v)
        return out
