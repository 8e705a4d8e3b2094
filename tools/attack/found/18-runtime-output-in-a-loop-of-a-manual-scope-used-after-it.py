# class: runtime use_after_scope
# not in issue 21 (found on land21, seed 5, r50000006): 07's buffer made by a task in a loop inside the manual scope and carried out of it; each iteration's buffer was freed with the scope (docs/semantics.md "Still open" 10; now one buffer made before the scope, shared by the iterations, which the compiler orders)
#
# found on branch land21:
# n=1 c=0: [runtime use_after_scope] submit kernel 1 (node 2) uses argument 0 (buffer 0x10a00000) after the scope #2 that allocated it ended
# n=2 c=0: [runtime use_after_scope] submit kernel 1 (node 4) uses argument 0 (buffer 0x10c00000) after the scope #2 that allocated it ended
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def rd(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.AIV)
    def k0(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            m = None
            for i, (p,) in pl.range(n, init_values=(b,)):
                f, t = pl.submit(self.rd, x)
                r = pl.yield_(f)
        a = self.k0(r, a)
        return a
