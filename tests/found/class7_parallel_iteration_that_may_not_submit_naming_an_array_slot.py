# issue 21, class 7: a pl.parallel iteration that may yield the TaskIds it started from (an if that
# does not submit), in a body that names one slot of a TaskId array made before the loop
# (`ids[b]`), was refused ("may yield several"): the join of the carry's init was left out for any
# body naming an array slot, lest the carry be the array indexed. Only an array the body binds, or
# a carry, may be the carry; `ids` is neither, so the init is joined ("Still open" 7).
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
            y, t = pl.submit(self.upd, x, y, deps=[])
            ids = pl.array.create(2, pl.TASK_ID)
            ids[0] = t
            ids[1] = t
            prev = None
            for phase in pl.range(2):
                for b, (c,) in pl.parallel(2, init_values=(prev,)):
                    if b < n:
                        z, d = pl.submit(self.upd, y, z, deps=[c, ids[b]])
                        r = pl.yield_(d)
                    else:
                        r = pl.yield_(c)
                    r2 = pl.yield_(r)
                prev = r2
            y, e = pl.submit(self.upd, z, y, deps=[prev, t])
        return z
