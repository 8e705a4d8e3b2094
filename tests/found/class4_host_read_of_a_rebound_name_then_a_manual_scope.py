# issue 21, class 4: k0 writes all of a (rebinding the name a), k1 then writes rows 4..7 of a
# through s1, a host read of a's element (0, 3) follows, then a manual scope whose task writes a.
# The host read waits for the producers of its element only (k0), not for k1; the hazard walk took
# the read of the rebound name for a read of all of a (the element's box is known only for a name
# that is its root) and let it stand for a wait on k1, so the scope's task had no edge on k1.
# Found by `python -m nanopass.tools.attack --seed 14 --seconds 600` (r140001725), reduced.
# check: n=1
import nanopass.dsl as pl


@pl.program
class Found:
    @pl.function(type=pl.FunctionType.AIV)
    def k0(self, p0: pl.Tensor[[4, 4], pl.FP32], p1: pl.InOut[pl.Tensor[[8, 4], pl.FP32]]) -> pl.Tensor[[8, 4], pl.FP32]:
        t: pl.Tile[[4, 4], pl.FP32] = pl.load(p0, [0, 0], [4, 4])
        o: pl.Tensor[[8, 4], pl.FP32] = pl.store(t, [0, 0], p1)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def k1(self, p0: pl.Tensor[[8, 4], pl.FP32], p1: pl.InOut[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        t: pl.Tile[[4, 4], pl.FP32] = pl.load(p0, [0, 0], [4, 4])
        o: pl.Tensor[[4, 4], pl.FP32] = pl.store(t, [0, 0], p1)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def k2(self, p0: pl.InOut[pl.Tensor[[4, 4], pl.FP32]], p1: pl.Out[pl.Tensor[[8, 4], pl.FP32]]) -> tuple[pl.Tensor[[4, 4], pl.FP32], pl.Tensor[[8, 4], pl.FP32]]:
        t: pl.Tile[[4, 4], pl.FP32] = pl.load(p0, [0, 0], [4, 4])
        o0: pl.Tensor[[4, 4], pl.FP32] = pl.store(t, [0, 0], p0)
        o1: pl.Tensor[[8, 4], pl.FP32] = pl.store(t, [0, 0], p1)
        return o0, o1

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[8, 4], pl.FP32],
        a: pl.InOut[pl.Tensor[[8, 4], pl.FP32]],
        w: pl.InOut[pl.Tensor[[4, 4], pl.FP32]],
        sink: pl.InOut[pl.Tensor[[16], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 4], pl.FP32]:
        s1 = pl.tensor.slice(a, [4, 4], [4, 0])
        a = self.k0(w, a)
        s1 = self.k1(x, s1)
        v = pl.tensor.read(a, [0, 3])
        pl.tensor.write(sink, [2], v)
        with pl.manual_scope():
            m = None
            (w, a), m = pl.submit(self.k2, w, a, deps=[m])
        return a
