# fuzz: war_branches: replace: replace 'x' by 'n < 1 < 2'
# expect: 10:16: error: chained comparisons are not supported; use 'and'
import nanopass.dsl as pl

@pl.program
class WarBranches:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_war_branches(self) -> pl.Tensor[[16, 16], pl.FP32]:
        return n < 1 < 2
