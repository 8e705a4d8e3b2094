# fuzz: war_loop_then_writer: decorator: drop the decorator of read; replace: replace '([16, 16], pl.FP32)' by 'lambda: 0'
# expect: 9:44: error: pl.Tensor needs a shape and a dtype: pl.Tensor[[16, 16], pl.FP32]
import nanopass.dsl as pl

@pl.program
class WarLoopThenWriter:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_war_loop_then_writer(self) -> pl.Tensor[lambda: 0]:
        pass
