# An if/else whose branches produce different tensors: the merged result is a real variable
# (a rebind phi) declared before the if and assigned at the end of each branch, then used after.
import nanopass.dsl as pl


@pl.program
class BranchResult:
    @pl.function(type=pl.FunctionType.AIV)
    def make(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_branch(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
        mode: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        a = pl.create_tensor([16, 16], dtype=pl.FP32)
        b = pl.create_tensor([16, 16], dtype=pl.FP32)
        scale = 1
        if mode == 0:
            t = self.make(x, a)
        else:
            t = self.make(x, b)
            scale = 2
        out = self.make(t, out)
        for i in pl.range(scale):
            out = self.make(t, out)
        return out
