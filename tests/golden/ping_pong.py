# Nested sequential loops with rebind carries: two buffers swap roles every step, so the carries
# are real C++ variables (D9), the yield is a parallel assignment through temporaries (D16),
# and every loop body is its own PTO2_SCOPE (D14).
import nanopass.dsl as pl


@pl.program
class PingPong:
    @pl.function(type=pl.FunctionType.AIV)
    def step(
        self,
        src: pl.Tensor[[32, 32], pl.FP32],
        dst: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_ping_pong(
        self,
        init: pl.Tensor[[32, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
    ) -> pl.Tensor[[32, 32], pl.FP32]:
        cur = pl.create_tensor([32, 32], dtype=pl.FP32)
        nxt = pl.create_tensor([32, 32], dtype=pl.FP32)
        cur = self.step(init, cur)
        for sweep in pl.range(3):
            for i in pl.range(4):
                nxt = self.step(cur, nxt)
                old = cur
                cur = nxt
                nxt = old
        out = self.step(cur, out)
        return out
