# fuzz: ping_pong: replace: replace 'cur' by 'None'
# expect: 14:25: error: None is not a value for parameter 'src' of 'step'
import nanopass.dsl as pl

@pl.program
class PingPong:

    @pl.function(type=pl.FunctionType.AIV)
    def step(self, src: pl.Tensor[[32, 32], pl.FP32], dst: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_ping_pong(self) -> pl.Tensor[[32, 32], pl.FP32]:
        out = self.step(None, out)
