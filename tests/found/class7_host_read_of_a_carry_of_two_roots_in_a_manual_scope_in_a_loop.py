# issue 21, class 7: a host read in a manual scope of a carry that is y or t, after the task of the
# earlier iteration's scope that writes t: the read needs a host fence before the scope, on t (the
# one root it meets); it was refused because the carry, made in the scope, may be two roots
# (fuzz_deps --tally --seed 100, program seed 305, reduced).
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
        t: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32, init_value=0)
        for w in pl.range(n):
            with pl.manual_scope():
                for i, (p, q) in pl.range(2, init_values=(y, t)):
                    h = pl.tensor.read(q, [0, 0])
                    pl.tensor.write(z, [0, 0], h)
                    a, b = pl.yield_(q, p)
                t, tid = pl.submit(self.upd, x, t, deps=[])
        return z
