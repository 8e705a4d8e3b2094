# fuzz: war_loop_then_writer: shape: shape [16, 16] -> [16, 1.5]; drop: drop 'return dst'
# expect: 9:59: error: expected an integer constant, got '1.5'
import nanopass.dsl as pl

@pl.program
class WarLoopThenWriter:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_war_loop_then_writer(self) -> pl.Tensor[[16, 1.5], pl.FP32]:
        pass
