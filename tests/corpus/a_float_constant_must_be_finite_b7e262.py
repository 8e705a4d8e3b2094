# fuzz: war_next_iteration: replace: replace 'x' by '1e400'; duplicate: duplicate 'x = self.write(z, x)'
# expect: 10:16: error: a float constant must be finite, got inf
import nanopass.dsl as pl

@pl.program
class WarNextIteration:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_war_next_iteration(self) -> pl.Tensor[[16, 16], pl.FP32]:
        return 1e309
