# fuzz: war_next_iteration: shape: shape [16, 16] -> []
# expect: 9:52: error: a tensor has 1 to 5 dimensions, got 0
import nanopass.dsl as pl

@pl.program
class WarNextIteration:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_war_next_iteration(self) -> pl.Tensor[[], pl.FP32]:
        pass
