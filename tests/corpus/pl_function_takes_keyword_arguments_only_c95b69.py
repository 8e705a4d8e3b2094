# fuzz: ping_pong: decorator: decorate step with @pl.function(pl.FunctionType.AIV); module: module constant K_NEW = 0, used in orch_ping_pong
# expect: 8:18: error: @pl.function takes keyword arguments only
import nanopass.dsl as pl

@pl.program
class PingPong:

    @pl.function(pl.FunctionType.AIV)
    def step(self) -> pl.Tensor[[32, 32], pl.FP32]:
        pass
