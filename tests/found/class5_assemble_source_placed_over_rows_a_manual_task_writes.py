# issue 21, class 5: in a manual scope a task writes rows 0..3 of a through a slice, then q is
# created, written and assembled into those rows. Placed, q's writer writes the rows with no
# dependency on the slice's writer (the user's q is fresh: nothing to order), so a could end with
# the slice writer's rows. Found by tools/attack's rows grammar (att5, found/25).
# check: n=0 c=0
# check: n=1 c=0
# check: n=2 c=0
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
