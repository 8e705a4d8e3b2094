# issue 21, class 5: as written, the second upd reads rows 0..7 of g as the first upd wrote them;
# with part placed in g, it reads what rd wrote into part.
# check: n=1
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
        z: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        g: pl.Tensor[[32, 8], pl.FP32] = pl.create_tensor([32, 8], dtype=pl.FP32)
        top = pl.tensor.slice(g, [8, 8], [0, 0])
        top = self.upd(x, top)
        part: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
        part = self.rd(x, part)
        rows = pl.tensor.slice(g, [8, 8], [0, 0])
        y = self.upd(rows, y)
        g = pl.assemble(g, part, [0, 0])
        again = pl.tensor.slice(g, [8, 8], [0, 0])
        y = self.upd(again, y)
        return y
