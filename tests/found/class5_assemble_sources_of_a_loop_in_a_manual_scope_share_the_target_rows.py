# issue 21, class 5: t is created, written by wr and assembled into rows 0..3 of a in each iteration
# of a loop inside a manual scope. Placed, both iterations' sources are those rows, and nothing
# ordered their writers (the user wrote two fresh tensors and two copies no deps= can name): a
# ended with either iteration's rows. The compiler orders every pair a placement makes inside one
# manual scope instance. Found by tools/attack's rows grammar (att5, found/24).
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
            u = None
            for i in pl.range(2):
                t = pl.create_tensor([4, 4], dtype=pl.FP32)
                t, u = pl.submit(self.wr, x, t)
                a = pl.assemble(a, t, [0, 0])
        return a
