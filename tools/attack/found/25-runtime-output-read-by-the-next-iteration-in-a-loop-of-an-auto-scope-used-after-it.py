# class: runtime use_after_scope
# not in issue 21 (24 in a hand-placed AUTO scope, written for the same fix)
#
# found on branch land21:
# n=1 c=0: [runtime use_after_scope] submit kernel 1 (node 1) uses argument 0 (buffer 0x10a00000) after the scope #1 that allocated it ended
# n=2 c=0: [runtime use_after_scope] submit kernel 1 (node 2) uses argument 0 (buffer 0x10c00000) after the scope #1 that allocated it ended
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def rd(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.AIV)
    def k0(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration, auto_scope=False)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.scope():
            for i, (p,) in pl.range(n, init_values=(b,)):
                f, t = pl.submit(self.rd, p)
                r = pl.yield_(f)
        a = self.k0(r, a)
        return a
