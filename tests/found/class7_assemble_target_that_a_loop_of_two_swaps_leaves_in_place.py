# issue 21, class 7: after a loop of two swaps of g and big, the carry a is g again and b is big,
# but the alias analysis took each for either, so the task writing rows of b was taken to write the
# rows of the assemble target a that part is placed in, between part's creation and the assemble,
# and the placement was refused ("Still open" 9b). The places of a fixed-trip loop's results are
# now its last iteration's yields (a swap followed iteration by iteration).
# check: n=0
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

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[8, 8], pl.FP32],
        y: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
        big: pl.InOut[pl.Tensor[[32, 8], pl.FP32]],
        n: pl.Scalar[pl.INT64],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        g: pl.Tensor[[32, 8], pl.FP32] = pl.create_tensor([32, 8], dtype=pl.FP32)
        for i, (p, q) in pl.range(2, init_values=(g, big)):
            a, b = pl.yield_(q, p)
        part: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
        part = self.rd(x, part)
        rows = pl.tensor.slice(b, [8, 8], [0, 0])
        rows = self.upd(x, rows)
        a = pl.assemble(a, part, [0, 0])
        s = pl.tensor.slice(a, [8, 8], [0, 0])
        y = self.upd(s, y)
        return y
