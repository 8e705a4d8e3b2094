# class: hazard WAW task>task AM
# not listed in issue 21 (a boundary edge, class 4's family): a tensor made by a task in iteration 0 and carried into iteration 1 is written in a manual scope there with no dep on its creator (a manual scope has no creator retention); it is also used after its scope
#
# found on branch attack:
# n=0 c=0: [runtime use_after_scope] submit kernel 1 (node 3) uses argument 0 (buffer 0x10a00000) after the scope #2 that allocated it ended
# n=0 c=0: [hazard WAW task>task AM] WAW between task mb (line 17, #0) and task ob (line 20, #3) is not ordered
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def mb(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.AIV)
    def ob(self, p0: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        for i, (p,) in pl.range(2, init_values=(w,)):
            f, t = pl.submit(self.mb, x)
            with pl.manual_scope():
                m = None
                p, m = pl.submit(self.ob, p, deps=[m])
            r = pl.yield_(f)
        return a
