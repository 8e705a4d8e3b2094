# fuzz: branch_result: drop: drop 't = self.make(x, b)'
# expect: 20:29: error: 't' is not visible here: it was defined only in the then-branch of the if at line 17
import nanopass.dsl as pl

@pl.program
class BranchResult:

    @pl.function(type=pl.FunctionType.AIV)
    def make(self, x: pl.Tensor[[16, 16], pl.FP32], dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_branch(self, x: pl.Tensor[[16, 16], pl.FP32], mode: pl.Scalar[pl.INT32]) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.create_tensor([16, 16], dtype=pl.FP32)
        b = pl.create_tensor([16, 16], dtype=pl.FP32)
        scale = 1
        if mode == 0:
            t = self.make(x, a)
        for i in pl.range(scale):
            out = self.make(t, out)
