# issue 21, class 7: the phases shape with a pl.range(n) chain in each pl.parallel branch, whose
# carry starts from the previous phase's slots: for n = 0 the branch yields them: refused ("may
# yield several TaskIds", "Still open" 7); the carry now starts from one barrier joining the init.
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
                    for k, (d,) in pl.range(n, init_values=(c,)):
                        y, d2 = pl.submit(self.upd, x, y, deps=[d])
                        r1 = pl.yield_(d2)
                    r2 = pl.yield_(r1)
                prev = r2
        return y
