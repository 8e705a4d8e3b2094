# Rebound tensor carries, a ping-pong swap (parallel assignment), scalar carries, nested loops
# with a sequential TaskId carry, an if on a loop variable, and a runtime-allocated output.
import nanopass.dsl as pl


@pl.program
class Carries:
    @pl.function(type=pl.FunctionType.AIV)
    def k_step(
        self,
        a: pl.Tensor[[8, 8], pl.FP32],
        out: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
        s: pl.Scalar[pl.FP32],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.AIV)
    def k_new(
        self,
        a: pl.Tensor[[8, 8], pl.FP32],
        s: pl.Scalar[pl.FP32],
        out: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        t: pl.Tile[[8, 8], pl.FP32] = pl.load(a, [0, 0], [8, 8])
        o: pl.Tensor[[8, 8], pl.FP32] = pl.store(t, [0, 0], out)
        return o

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_carries(
        self,
        x: pl.Tensor[[8, 8], pl.FP32],
        y: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
        n: pl.Scalar[pl.INT32],
        scale: pl.Scalar[pl.FP32],
    ) -> pl.Tensor[[8, 8], pl.FP32]:
        a: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
        b: pl.Tensor[[8, 8], pl.FP32] = pl.create_tensor([8, 8], dtype=pl.FP32)
        a = self.k_step(x, a, scale)
        s = scale
        for i in pl.range(n):
            b = self.k_step(a, b, s)
            t = a
            a = b
            b = t
            s = s * 0.5 + 1.0
            if i % 2 == 1:
                fresh, made = pl.submit(self.k_new, a, s)
                b = self.k_step(fresh, b, s)
        for i, (p, q) in pl.range(1, 7, 3, init_values=(a, b)):
            q = self.k_step(p, q, scale - 1.0)
            p, q = pl.yield_(q, p)
        y, ty = pl.submit(self.k_step, p, y, s)
        with pl.manual_scope():
            prev = ty
            for j in pl.range(2):
                for k in pl.range(j, 3):
                    y, prev = pl.submit(self.k_step, x, y, scale, deps=[prev])
        return y
