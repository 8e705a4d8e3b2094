# class: hazard WAW task>task MM recorded-only
# rows grammar, size 3: a task writes rows 0..3 of `a` through a slice in a manual scope, then a create + write + assemble into the same rows; the source, placed in those rows, is written with no dependency on the slice's writer (the user's program has none: the source is fresh), so `a` may end with the slice writer's rows
#
# found on branch att5 (main c6721bf), fixed since by the placement pairs of branch asm21:
# n=0 c=0: [hazard WAW task>task MM recorded-only] WAW between task wr (line 15, #0) and task wr (line 17, #1) is not ordered (recorded memory)
import nanopass.dsl as pl


@pl.program
class Attack:
    @pl.function(type=pl.FunctionType.AIV)
    def wr(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        return p1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[8, 4], pl.FP32], a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], b: pl.InOut[pl.Tensor[[8, 4], pl.FP32]], w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], sink: pl.InOut[pl.Tensor[[16], pl.FP32]], v: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], n: pl.Scalar[pl.INT64], c: pl.Scalar[pl.INT64]) -> pl.Tensor[[8, 4], pl.FP32]:
        with pl.manual_scope():
            t = None
            s = pl.tensor.slice(a, [4, 4], [0, 0])
            s, t = pl.submit(self.wr, x, s, deps=[t])
            q = pl.create_tensor([4, 4], dtype=pl.FP32)
            q, u = pl.submit(self.wr, x, q)
            a = pl.assemble(a, q, [0, 0])
        return a
