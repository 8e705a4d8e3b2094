# issue 21, class 1: order_write_after_read orders the host write after the task writing s; compiled
# with analyze_auto_scopes_for_deps, derive_auto_scope_dependencies makes the code manual and drops that order.
# check: n=1
# options: analyze_auto_scopes_for_deps=True
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
        s = pl.tensor.slice(big, [8, 8], [0, 0])
        s = self.rd(x, s)
        pl.tensor.write(s, [4, 2], 1.0)
        y = self.upd(x, y)
        return y
