# fuzz: war_branches: module: module constant K_NEW = (4,), used in orch_war_branches
# expect: 11:13: error: 'K_NEW' is a tuple; only int, float and bool values can be used here
import nanopass.dsl as pl
K_NEW = (4,)

@pl.program
class WarBranches:

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_war_branches(self) -> pl.Tensor[[16, 16], pl.FP32]:
        x = K_NEW
