# Values that outlive the scope computing them (the seed's #1697 case): a tensor created in a
# manual scope and read after it has its alloc_tensors hoisted before the scope; a scalar and a
# rebound carry computed in a hand-placed AUTO scope are declared before it and assigned in it.
import nanopass.dsl as pl


@pl.program
class ScopeEscape:
    @pl.function(type=pl.FunctionType.AIV)
    def make(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.AIV)
    def scaled(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        k: pl.Scalar[pl.INT64],
        dst: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def orch_escape(
        self,
        x: pl.Tensor[[16, 16], pl.FP32],
        out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        with pl.manual_scope():
            tmp = pl.create_tensor([16, 16], dtype=pl.FP32)
            tmp, t1 = pl.submit(self.make, x, tmp)
        a = pl.create_tensor([16, 16], dtype=pl.FP32)
        b = pl.create_tensor([16, 16], dtype=pl.FP32)
        with pl.scope():
            k = n * 2
            cur = a
            for i in pl.range(n):
                cur = self.make(tmp, b)
        out = self.scaled(cur, k, out)
        return out
