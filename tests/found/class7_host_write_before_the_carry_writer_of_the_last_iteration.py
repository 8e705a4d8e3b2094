# issue 21, class 7: a manual scope around a loop of two iterations whose carry is b in the first
# and a in the second: each iteration host-writes a, then a task writes the carry. The first
# iteration's task writes b, the second's writes a after that iteration's host write: nothing
# races. The hazard dataflow merged the carry's places over the iterations ({a, b}), so the second
# host write met the first task as a writer of a and was refused ("no dependency can make a host
# access wait"); a loop of constant bounds whose carries differ by iteration is now analysed
# iteration by iteration (hazards.iteration_stores; tools/attack/found/22 with pl.range).
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
        a: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        b: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        with pl.manual_scope():
            m = None
            for i, (p, m) in pl.range(2, init_values=(b, m)):
                pl.tensor.write(a, [5, 0], 4.0)
                p, m = pl.submit(self.upd, x, p, deps=[m])
                p, m = pl.yield_(a, m)
        return a
