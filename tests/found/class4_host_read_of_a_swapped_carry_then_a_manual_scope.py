# issue 21, class 4: after a loop whose carries swap y and z, k writes y, then a host read of the
# carry o, which is z for an odd trip count and y for an even one; then a manual scope writes y.
# The host read waits for y's writer only when o is y, so it orders nothing on the runs where o is
# z: the scope's task must still wait for k (found by fuzz_deps --tally --seed 20187, reduced).
# check: n=3
# check: n=2
import nanopass.dsl as pl


@pl.program
class Found:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
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
        for i, (p, q) in pl.range(n, init_values=(y, z)):
            o, o2 = pl.yield_(q, p)
        y = self.k(x, y)
        h = pl.tensor.read(o, [0, 0])
        pl.tensor.write(t, [0, 0], h)
        with pl.manual_scope():
            y, tid = pl.submit(self.k, x, y, deps=[])
        return y
