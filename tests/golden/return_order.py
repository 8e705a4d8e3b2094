# NormalizeReturnOrder: a kernel returns its outputs in another order than it declares its Out
# parameters; each result still names the argument it writes (b is y, c is x), so later tasks
# read the right tensors and no copy is emitted.
import nanopass.dsl as pl

T = pl.Tensor[[8, 8], pl.FP32]


@pl.program
class ReturnOrder:
    @pl.function(type=pl.FunctionType.AIV)
    def split(
        self,
        a: pl.Tensor[[8, 8], pl.FP32],
        x: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
        y: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
    ) -> tuple[pl.Tensor[[8, 8], pl.FP32], pl.Tensor[[8, 8], pl.FP32]]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        x2: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], x)
        y1: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], y)
        y2 = y1
        return y2, x2

    @pl.function(type=pl.FunctionType.AIV)
    def use(
        self,
        first: pl.Tensor[[8, 8], pl.FP32],
        second: pl.Tensor[[8, 8], pl.FP32],
        out: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_order(
        self,
        a: pl.Tensor[[8, 8], pl.FP32],
        out: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        x = pl.create_tensor([8, 8], dtype=pl.FP32)
        y = pl.create_tensor([8, 8], dtype=pl.FP32)
        b, c = self.split(a, x, y)
        out = self.use(b, c, out)
        return out
