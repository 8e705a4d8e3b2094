# class: hazard RAW task>task MM
# issue 21 class 2: nothing orders one instance of a manual scope after the previous one (RAW, WAW and WAR alike)
#
# found on branch attack:
# n=0 c=0: [hazard RAW task>task MM] RAW/WAR/WAW between task ub (line 15, #0) and task ub (line 15, #1) is not ordered
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def ub(self, p0: pl.InOut[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p0

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        for i in pl.range(2):
            with pl.manual_scope():
                m = None
                w, m = pl.submit(self.ub, w, deps=[m])
        return a
