# issue 21, class 4: a loop nest writes row slices of big at computed offsets (unknown regions),
# then a host write to rows 24..31 (s0), then a manual scope whose task writes rows 0..7: the host
# write's wait on big's producers covers only the rows it shares, so it does not order the scope's
# task after the loop's writers of rows 0..7 (found by fuzz_deps --tally --seed 10059, reduced).
# check: n=1
# check: n=2
import nanopass.dsl as pl


@pl.program
class Found:
    @pl.function(type=pl.FunctionType.AIV)
    def rd(self, a: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def upd(self, a: pl.Tensor[[8, 8], pl.FP32], acc: pl.InOut[pl.Tensor[[8, 8], pl.FP32]]) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], acc)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def two(
        self, a: pl.Tensor[[8, 8], pl.FP32], o1: pl.Out[pl.Tensor[[8, 8], pl.FP32]], o2: pl.Out[pl.Tensor[[8, 8], pl.FP32]]
    ) -> tuple[pl.Tensor[[8, 8], pl.FP32], pl.Tensor[[8, 8], pl.FP32]]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        r1: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], o1)
        r2: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], o2)
        return r1, r2

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[8, 8], pl.FP32],
        y: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        s0 = pl.tensor.slice(big, [8, 8], [24, 0])
        for i in pl.range(2):
            for j in pl.range(3):
                s = pl.tensor.slice(big, [8, 8], [(j % 4) * 8, 0])
                t: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
                s, t = self.two(x, s, t)
        pl.tensor.write(s0, [3, 0], 6.5)
        with pl.manual_scope():
            for k in pl.range(n):
                r = pl.tensor.slice(big, [8, 8], [(k % 4) * 8, 0])
                u: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
                (r, u), tid = pl.submit(self.two, x, r, u, deps=[])
        return y
