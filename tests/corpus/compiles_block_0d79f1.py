# fuzz: war_branches: block: unwrap 'if n > 0:'
# expect: compiles
import nanopass.dsl as pl

@pl.program
class WarBranches:

    @pl.function(type=pl.FunctionType.AIV)
    def read(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def write(self, src: pl.Tensor[[16, 16], pl.FP32], dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_war_branches(self, x: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], y: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], z: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INT64]) -> pl.Tensor[[16, 16], pl.FP32]:
        y = self.read(x, y)
        z2 = pl.create_tensor([16, 16], dtype=pl.FP32)
        z2 = self.read(x, z2)
        y = self.read(z2, y)
        x = self.write(z, x)
        return x
