# fuzz: war_straight: shape: shape [16, 16] -> ['16', 16]
# expect: 9:47: error: expected a number, got the string '16'
import nanopass.dsl as pl

@pl.program
class WarStraight:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_war_straight(self) -> pl.Tensor[['16', 16], pl.FP32]:
        pass
