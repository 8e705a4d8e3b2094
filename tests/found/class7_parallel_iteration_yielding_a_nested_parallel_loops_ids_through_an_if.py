# issue 21, class 7: a pl.parallel iteration whose nested pl.parallel loop's TaskIds reach its
# yield through an if (the other branch yields the carry) was refused ("may yield several"):
# insert_parallel_carry_joins now puts the barrier over the inner loop's ids in the branch, before
# its yield, so the if result holds one id on every path ("Still open" 7).
# check: n=0
# check: n=1
# check: n=2
# check: n=3
import nanopass.dsl as pl


@pl.program
class Found:
    @pl.function(type=pl.FunctionType.AIV)
    def upd(self, a: pl.Tensor[[8, 8], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], acc)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[8, 8], pl.FP32],
        y: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        z: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        with pl.manual_scope():
            prev = None
            for b, (c,) in pl.parallel(2, init_values=(prev,)):
                if b < n:
                    for j, (d,) in pl.parallel(2, init_values=(c,)):
                        y, d2 = pl.submit(self.upd, x, y, deps=[d])
                        r1 = pl.yield_(d2)
                    e = r1
                else:
                    e = c
                r2 = pl.yield_(e)
            z, t = pl.submit(self.upd, y, z, deps=[r2])
        return z
