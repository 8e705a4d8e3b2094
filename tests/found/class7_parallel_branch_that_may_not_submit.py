# issue 21, class 7: the phases shape where a pl.parallel iteration submits only when b < n and
# otherwise yields the TaskIds it started from (the previous phase's slots): refused ("may yield
# several TaskIds", "Still open" 7); the carry now starts from one barrier joining the init.
# check: n=0
# check: n=1
# check: n=2
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
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        with pl.manual_scope():
            prev = None
            for phase in pl.range(3):
                for b, (c,) in pl.parallel(2, init_values=(prev,)):
                    if b < n:
                        y, d = pl.submit(self.upd, x, y, deps=[c])
                        r = pl.yield_(d)
                    else:
                        r = pl.yield_(c)
                    r2 = pl.yield_(r)
                prev = r2
            y, e = pl.submit(self.upd, x, y, deps=[prev])
        return y
