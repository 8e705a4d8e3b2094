# issue 21, class 7: a loop of constant bounds with one iteration was analysed by the hazard
# dataflow as if it could repeat, so the host read in the manual scope, before the task of the same
# iteration that writes y, was refused as racing it ("no dependency can make a host access wait":
# as if it came after it; "Still open" 9a).
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
        z: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        with pl.manual_scope():
            for i in pl.range(3, 4):
                h = pl.tensor.read(y, [0, 0])
                pl.tensor.write(z, [0, 0], h)
                y, tid = pl.submit(self.upd, x, y, deps=[])
        return y
