# class: hazard WAW task>task MM recorded-only
# rows grammar, size 3 (rows3-00061; pl.range(n): rows3-00072): a create + write + assemble into rows 0..3 of `a` in a loop of a manual scope. Each iteration's source is placed in the same rows of `a` (t2 = ext_a.view(...)) and nothing orders the two writers, which the user wrote as writes of two fresh tensors: `a` ends with either iteration's rows. `nanopass check` flags the same pair
#
# found on branch att5 (main c6721bf), fixed since by the placement pairs of branch asm21:
# n=0 c=0: [hazard WAW task>task MM recorded-only] WAW between task wr (line 16, #0) and task wr (line 16, #1) is not ordered (recorded memory)
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def wr(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], v: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            u = None
            for i in pl.range(2):
                t = pl.create_tensor([4, 4], dtype=pl.FP32)
                t, u = pl.submit(self.wr, x, t)
                a = pl.assemble(a, t, [0, 0])
        return a
