# class: runtime use_after_scope
# not in issue 21 (18 with pl.parallel(3), written for the same fix): iterations that may run at once cannot share one buffer; now one row block each of a buffer made before the scope
#
# found on branch land21:
# n=0 c=0: [runtime use_after_scope] submit kernel 1 (node 5) uses argument 0 (buffer 0x10e00000) after the scope #2 that allocated it ended
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
            for i, (p,) in pl.parallel(3, init_values=(b,)):
                f, t = pl.submit(self.rd, x)
                r = pl.yield_(f)
        a = self.k0(r, a)
        return a
