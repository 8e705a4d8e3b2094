# Two scratch buffers created with initial values, alternated by loop parity (ping-pong), a
# manual_dep buffer, and a final copy out.
import nanopass.dsl as pl


@pl.program
class PingPong:
    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[32, 32], pl.FP32],
             dst: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        t = pl.load(src, [0, 0], [32, 32])
        dst = pl.store(pl.exp(t), [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[32, 32], pl.FP32], out: pl.Out[pl.Tensor[[32, 32], pl.FP32]],
            n: pl.Scalar[pl.INT64]) -> pl.Tensor[[32, 32], pl.FP32]:
        ping = pl.create_tensor([32, 32], dtype=pl.FP32, init_value=0.0)
        pong = pl.create_tensor([32, 32], dtype=pl.FP32, init_value=1.0)
        ping = self.step(x, ping)
        for i in pl.range(n):
            if i % 2 == 0:
                pong = self.step(ping, pong)
            else:
                ping = self.step(pong, ping)
        out = self.step(ping, out)
        return out
