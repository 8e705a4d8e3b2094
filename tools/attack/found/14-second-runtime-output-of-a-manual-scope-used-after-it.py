# class: runtime use_after_scope
# not in issue 21 (found on land21, seed 5, three programs): 07 with a kernel of two Out parameters the call leaves out, the second used after the scope; only the first left-out argument could be given a buffer made before the scope (arguments are positional)
#
# found on branch land21:
# n=0 c=0: [runtime use_after_scope] submit kernel 1 (node 1) uses argument 0 (buffer 0x10c00000) after the scope #2 that allocated it ended
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def two(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[8, 4], pl.FP32]], p2: pl.Out[pl.Tensor[[8, 4], pl.FP32]]) -> tuple[pl.Tensor[[8, 4], pl.FP32], pl.Tensor[[8, 4], pl.FP32]]:
        return p1, p2

    @pl.function(type=pl.FunctionType.AIV)
    def k0(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            m = None
            (f, g), m = pl.submit(self.two, x, deps=[m])
        a = self.k0(g, a)
        return a
